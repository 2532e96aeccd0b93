// The Gemini door names its model in the path (`/gemini/v1beta/models/{model}:…`): what its model routes read.
import type { Context as ApiContext } from 'openapi-backend';

/** The path's model parameter, as the router parsed it (still percent-encoded). */
export function pathModel(api: ApiContext): string {
  return String((api.request.params as { model: string }).model);
}
