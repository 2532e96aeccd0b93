// A query parameter without a name (`?=x`, `?a=1&=2`) names no parameter of any operation. Parsers disagree on it
// (dropped, or kept under the key ""), so it is refused outright instead of being silently ignored: 400 on every
// operation, in the door's own error shape. Empty pieces with no `=` (`?&a=1`, a trailing `&`) are only separators.
import { GatewayError } from '../core/gateway-error.js';

export function checkQueryNames(querystring: string): void {
  if (querystring === '') return;
  for (const piece of querystring.split('&')) {
    if (piece.startsWith('=')) {
      throw new GatewayError(
        400,
        'Invalid query string: a parameter has an empty name (a piece of the query starts with "=")',
        {
          reason: 'empty_query_parameter_name',
        },
      );
    }
  }
}
