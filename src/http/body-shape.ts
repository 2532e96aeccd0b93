// What a parsed request body may not be, whatever its operation: nested deeper than MAX_JSON_DEPTH (json-depth.ts), or
// repeating a member name within one object (json-member-names.ts). Both are answered 400 by the body reader.
import { GatewayError } from '../core/gateway-error.js';
import { MAX_JSON_DEPTH, jsonShape } from './json-depth.js';
import { countMemberNames, firstDuplicateMember } from './json-member-names.js';

/**
 * A parsed body the gateway will not take: nested too deep, or repeating a member name in one object (JSON.parse keeps
 * the last copy, while the bytes forwarded on a native lane carry both). One walk of the parsed value serves both.
 */
export function refuseBodyShape(text: string, body: unknown): GatewayError | undefined {
  const shape = jsonShape(body, MAX_JSON_DEPTH);
  if (shape.tooDeep) {
    return new GatewayError(400, `JSON body nests deeper than ${MAX_JSON_DEPTH} levels`, {
      reason: 'nesting_too_deep',
      max_depth: MAX_JSON_DEPTH,
    });
  }
  if (countMemberNames(text) === shape.members) return undefined;
  const duplicate = firstDuplicateMember(text);
  const field = duplicate?.field ?? 'body';
  return new GatewayError(
    400,
    `Invalid request: ${field} appears more than once in its object (a JSON member name may appear only once)`,
    {
      reason: 'duplicate_member_name',
      field,
    },
  );
}
