// POST /responses — the OpenAI Responses API front door: its request is parsed into the internal request, and its
// renderers make the Response object and the typed event stream. The eight steps run in serveGeneration.
import type { GenerationParts } from '../pipeline/generation-parts.js';
import type { Handler } from '../http/openapi-router.js';
import { serveGeneration } from '../pipeline/serve-generation.js';
import { generationClient, generationResponse } from '../http/generation-exchange.js';
import { includesEncryptedReasoning, parseResponseRequest } from '../formats/responses/parse-request.js';
import { echoOf } from '../formats/responses/response-object.js';
import { buildResponse } from '../formats/responses/build-response.js';
import { ResponseStreamRenderer } from '../formats/responses/response-stream-renderer.js';
import type { ResponseRequest } from '../formats/responses/wire-types.js';
import { responsesSessionKey } from '../formats/responses/session-key.js';

export function createResponse(generations: GenerationParts): Handler {
  return (api, ctx) => {
    const body = api.request.requestBody as ResponseRequest;
    const request = parseResponseRequest(body);
    const echo = echoOf(body);
    const options = { encryptedReasoning: includesEncryptedReasoning(body) };
    return serveGeneration(generations, generationClient(ctx), {
      apiFormat: 'responses',
      request,
      // OpenAI's default for this API: one JSON object unless `stream` is true.
      stream: body.stream === true,
      renderJson: (completion, totals, identity) => buildResponse(completion, totals, identity, echo, options),
      createStreamRenderer: (identity) => new ResponseStreamRenderer(identity, echo, options),
      sessionKey: responsesSessionKey(body, ctx.headers),
    }, generationResponse(ctx));
  };
}
