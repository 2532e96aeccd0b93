// POST /responses — the OpenAI Responses API front door: its facts for planning, the client's own request for the
// native lane (OpenAI's Responses API), its translation into the internal request for every other provider, and
// renderers for the Response object and the typed event stream. The eight steps run in serveGeneration.
import type { GenerationParts } from '../pipeline/generation-parts.js';
import type { Handler } from '../http/openapi-router.js';
import { serveGeneration } from '../pipeline/serve-generation.js';
import { generationClient, generationResponse } from '../http/generation-exchange.js';
import { nativeWireOf, sessionHeaderOf } from '../http/native-wire.js';
import { includesEncryptedReasoning, parseResponseRequest } from '../formats/responses/parse-request.js';
import { echoOf } from '../formats/responses/response-object.js';
import { buildResponse } from '../formats/responses/build-response.js';
import { ResponseStreamRenderer } from '../formats/responses/response-stream-renderer.js';
import { responsesRequestFacts } from '../formats/responses/request-facts.js';
import { translatableInput } from '../formats/responses/translatable-items.js';
import { GATEWAY_ONLY_FIELDS } from '../formats/shared/gateway-fields.js';
import type { ResponseRequest } from '../formats/responses/wire-types.js';

/** The client's protocol headers OpenAI reads (never credentials). */
function openAiClientHeaders(beta: string): Record<string, string> {
  return beta === '' ? {} : { 'openai-beta': beta };
}

export function createResponse(generations: GenerationParts): Handler {
  return (api, ctx) => {
    const body = api.request.requestBody as ResponseRequest;
    const echo = echoOf(body);
    const options = { encryptedReasoning: includesEncryptedReasoning(body) };
    return serveGeneration(generations, generationClient(ctx), {
      apiFormat: 'responses',
      protocol: 'responses',
      facts: responsesRequestFacts(body, sessionHeaderOf(ctx)),
      wire: nativeWireOf(ctx, body, GATEWAY_ONLY_FIELDS, openAiClientHeaders(ctx.get('openai-beta'))),
      translate: () => parseResponseRequest(translatableInput(body)),
      // OpenAI's default for this API: one JSON object unless `stream` is true.
      stream: body.stream === true,
      renderJson: (completion, totals, identity) => buildResponse(completion, totals, identity, echo, options),
      createStreamRenderer: (identity) => new ResponseStreamRenderer(identity, echo, options),
    }, generationResponse(ctx));
  };
}
