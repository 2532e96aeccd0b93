// The Gemini door's paths name the model inside the path (`/models/{model}:generateContent`), and Gemini CLI puts a
// gateway id there unencoded (`-m anthropic/claude-sonnet-5-5` →
// `/models/anthropic/claude-sonnet-5-5:generateContent`). A path parameter cannot hold a `/`, so at the door's edge,
// before routing, every `/` of the model segment (from `/models/` to the last `:`, or to the end on GET
// /models/{model}) is encoded as `%2F`; the handler decodes it (gemini-model-name.ts). Decision recorded in
// spec/gemini/routes.tsp.

/** Where the door's model paths begin (the router is mounted at /api/v1). */
export const GEMINI_MODELS_PREFIX = '/api/v1/gemini/v1beta/models/';

export function rewriteGeminiModelPath(path: string): string {
  if (!path.startsWith(GEMINI_MODELS_PREFIX)) return path;
  const rest = path.slice(GEMINI_MODELS_PREFIX.length);
  if (!rest.includes('/')) return path;
  const colon = rest.lastIndexOf(':');
  // A `:` inside the last segment is the method; one before a later `/` is part of the model (left to 404).
  const method = colon > rest.lastIndexOf('/') ? rest.slice(colon) : '';
  const model = method === '' ? rest : rest.slice(0, colon);
  return GEMINI_MODELS_PREFIX + model.replaceAll('/', '%2F') + method;
}
