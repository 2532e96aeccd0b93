// POST /chat/completions — the chat-completions front door (formats/chat-completions/door.ts): its facts for planning,
// the client's own request for the native lane (OpenAI-compatible upstreams), its parse into the internal request for
// the translated lane (on demand), and renderers for the spec's Completion object and chunk stream. The eight steps run
// in serveGeneration; the opt-in response cache wraps the door's answer (X-Modelgate-Cache).
import type { GenerationParts } from '../pipeline/generation-parts.js';
import type { Handler } from '../http/openapi-router.js';
import { nativeWireOf } from '../http/native-wire.js';
import { serveGenerationCached } from '../http/response-cache-exchange.js';
import type { HitParts } from '../pipeline/response-cache/admit-cache-hit.js';
import { wantsStream } from '../formats/chat-completions/stream-mode.js';
import { chatDoor as door } from '../formats/chat-completions/door.js';
import type { ChatCompletionRequest } from '../formats/chat-completions/wire-types.js';
import { GATEWAY_ONLY_FIELDS } from '../formats/shared/gateway-fields.js';
import { autoCacheWanted } from '../formats/shared/auto-cache-header.js';

/** `streamDefault`: what an omitted `stream` means when the Accept header does not say (MODELGATE_STREAM_DEFAULT). */
export function createChatCompletion(generations: GenerationParts & HitParts, streamDefault: boolean): Handler {
  return (api, ctx) => {
    const body = api.request.requestBody as ChatCompletionRequest;
    const stream = wantsStream(body.stream, ctx.get('accept'), streamDefault);
    const autoCache = autoCacheWanted(ctx.headers);
    const model = body.model;
    return serveGenerationCached(generations, ctx, {
      apiFormat: door.apiFormat,
      protocol: door.protocol,
      facts: door.readFacts(body, model),
      wire: nativeWireOf(ctx, body, GATEWAY_ONLY_FIELDS, door.clientHeaders(ctx.headers)),
      translate: () => door.parse(body, { model, stream, autoCache }),
      stream,
      ...door.renderers(body),
      sessionKey: door.sessionKey(body, ctx.headers),
    });
  };
}
