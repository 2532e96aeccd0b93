// The Gemini door's generation, shared by :generateContent and :streamGenerateContent: the model from the path (a
// bare Gemini name or a gateway id, model-name.ts), its facts for planning, the client's own request for the native
// lane (Google upstreams), its parse into the internal request for the other providers (on demand), the renderers for
// Google's response object and its chunks; a stream is framed as SSE (`alt=sse`) or as a JSON array on both lanes. The eight steps run in
// serveGeneration; the opt-in response cache wraps the door's answer (X-Modelgate-Cache).
import type { Context } from 'koa';
import type { Context as ApiContext } from 'openapi-backend';
import type { GenerationParts } from '../pipeline/generation-parts.js';
import { nativeWireOf } from '../http/native-wire.js';
import { GATEWAY_ONLY_FIELDS } from '../formats/shared/gateway-fields.js';
import { serveGenerationCached } from '../http/response-cache-exchange.js';
import type { HitParts } from '../pipeline/response-cache/admit-cache-hit.js';
import type { StreamFraming } from '../http/write-event-stream.js';
import { geminiDoor as door } from '../formats/gemini/door.js';
import { geminiGatewayModelId } from '../formats/gemini/model-name.js';
import type { GeminiGenerateContentRequest } from '../formats/gemini/wire-types.js';

/** The path's model parameter, as the router parsed it (still percent-encoded). */
export function pathModel(api: ApiContext): string {
  return String((api.request.params as { model: string }).model);
}

export function serveGeminiGeneration(
  generations: GenerationParts & HitParts,
  api: ApiContext,
  ctx: Context,
  framing: StreamFraming | undefined,
): Promise<void> {
  const body = api.request.requestBody as GeminiGenerateContentRequest;
  const stream = framing !== undefined;
  const model = geminiGatewayModelId(pathModel(api));
  return serveGenerationCached(
    generations,
    ctx,
    {
      apiFormat: door.apiFormat,
      protocol: door.protocol,
      facts: door.readFacts(body, model),
      wire: nativeWireOf(ctx, body, GATEWAY_ONLY_FIELDS, door.clientHeaders(ctx.headers)),
      translate: () => door.parse(body, { model, stream, autoCache: false }),
      stream,
      ...door.renderers(body),
      sessionKey: door.sessionKey(body, ctx.headers),
    },
    framing,
  );
}
