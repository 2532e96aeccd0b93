// POST /responses — the OpenAI Responses API front door: its request is parsed into the internal request, and its
// renderers make the Response object and the typed event stream. The eight steps run in serveGeneration; the opt-in
// response cache wraps the door's answer (X-Modelgate-Cache).
import type { GenerationParts } from '../pipeline/generation-parts.js';
import type { Handler } from '../http/openapi-router.js';
import { serveGeneration } from '../pipeline/serve-generation.js';
import { generationClient } from '../http/generation-exchange.js';
import { withResponseCache } from '../http/response-cache-exchange.js';
import type { HitParts } from '../pipeline/serve-cache-hit.js';
import { includesEncryptedReasoning, parseResponseRequest } from '../formats/responses/parse-request.js';
import { echoOf } from '../formats/responses/response-object.js';
import { buildResponse } from '../formats/responses/build-response.js';
import { ResponseStreamRenderer } from '../formats/responses/response-stream-renderer.js';
import type { ResponseRequest } from '../formats/responses/wire-types.js';
import { responsesSessionKey } from '../formats/responses/session-key.js';
import { autoCacheWanted } from '../formats/shared/auto-cache-header.js';

export function createResponse(generations: GenerationParts & HitParts): Handler {
  return (api, ctx) => {
    const body = api.request.requestBody as ResponseRequest;
    // OpenAI's default for this API: one JSON object unless `stream` is true.
    const stream = body.stream === true;
    const request = parseResponseRequest(body, stream, autoCacheWanted(ctx.headers));
    const echo = echoOf(body);
    const options = { encryptedReasoning: includesEncryptedReasoning(body) };
    return withResponseCache(generations, ctx, { apiFormat: 'responses', model: request.model, body, stream }, (response) =>
      serveGeneration(generations, generationClient(ctx), {
        apiFormat: 'responses',
        request,
        routing: { models: body.models, provider: body.provider },
        releasePrompt: () => {
          body.input = [];
        },
        stream,
        renderJson: (completion, totals, identity) => buildResponse(completion, totals, identity, echo, options),
        createStreamRenderer: (identity) => new ResponseStreamRenderer(identity, echo, options),
        sessionKey: responsesSessionKey(body, ctx.headers),
      }, response));
  };
}
