// POST /responses — the OpenAI Responses API front door: its facts for planning, the client's own request for the
// native lane (OpenAI's Responses API), its parse into the internal request for every other provider (on demand), and
// renderers for the Response object and the typed event stream. The eight steps run in serveGeneration; the opt-in
// response cache wraps the door's answer (X-Modelgate-Cache).
import type { GenerationParts } from '../pipeline/generation-parts.js';
import type { Handler } from '../http/openapi-router.js';
import { nativeWireOf } from '../http/native-wire.js';
import { serveGenerationCached } from '../http/response-cache-exchange.js';
import type { HitParts } from '../pipeline/response-cache/admit-cache-hit.js';
import { includesEncryptedReasoning, parseResponseRequest } from '../formats/responses/parse-request.js';
import { echoOf } from '../formats/responses/response-object.js';
import { buildResponse } from '../formats/responses/build-response.js';
import { ResponseStreamRenderer } from '../formats/responses/response-stream-renderer.js';
import { responsesRequestFacts } from '../formats/responses/request-facts.js';
import type { ResponseRequest } from '../formats/responses/wire-types.js';
import { responsesSessionKey } from '../formats/responses/session-key.js';
import { GATEWAY_ONLY_FIELDS } from '../formats/shared/gateway-fields.js';
import { autoCacheWanted } from '../formats/shared/auto-cache-header.js';

/** The client's protocol headers OpenAI reads (never credentials). */
function openAiClientHeaders(beta: string): Record<string, string> {
  return beta === '' ? {} : { 'openai-beta': beta };
}

export function createResponse(generations: GenerationParts & HitParts): Handler {
  return (api, ctx) => {
    const body = api.request.requestBody as ResponseRequest;
    // OpenAI's default for this API: one JSON object unless `stream` is true.
    const stream = body.stream === true;
    // Before the cache and the echo: a stored response cannot be continued on any lane (400).
    const facts = responsesRequestFacts(body);
    const autoCache = autoCacheWanted(ctx.headers);
    const echo = echoOf(body);
    const options = { encryptedReasoning: includesEncryptedReasoning(body) };
    return serveGenerationCached(generations, ctx, {
      apiFormat: 'responses',
      protocol: 'responses',
      facts,
      wire: nativeWireOf(ctx, body, GATEWAY_ONLY_FIELDS, openAiClientHeaders(ctx.get('openai-beta'))),
      translate: () => parseResponseRequest(body, stream, autoCache),
      stream,
      renderJson: (completion, totals, identity) => buildResponse(completion, totals, identity, echo, options),
      createStreamRenderer: (identity) => new ResponseStreamRenderer(identity, echo, options),
      sessionKey: responsesSessionKey(body, ctx.headers),
    });
  };
}
