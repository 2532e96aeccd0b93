// POST /chat/completions — the chat-completions front door: its facts for planning, the client's own request for the
// native lane (OpenAI-compatible upstreams), its parse into the internal request for the translated lane (on demand),
// and renderers for the spec's Completion object and chunk stream. The eight steps run in serveGeneration; the opt-in
// response cache wraps the door's answer (X-Modelgate-Cache).
import type { GenerationParts } from '../pipeline/generation-parts.js';
import type { Handler } from '../http/openapi-router.js';
import { nativeWireOf } from '../http/native-wire.js';
import { serveGenerationCached } from '../http/response-cache-exchange.js';
import type { HitParts } from '../pipeline/response-cache/admit-cache-hit.js';
import { wantsStream } from '../formats/chat-completions/stream-mode.js';
import { parseChatRequest } from '../formats/chat-completions/parse-request.js';
import { buildCompletion } from '../formats/chat-completions/build-completion.js';
import { ChatStreamRenderer } from '../formats/chat-completions/chat-stream-renderer.js';
import { chatRequestFacts } from '../formats/chat-completions/request-facts.js';
import type { ChatCompletionRequest } from '../formats/chat-completions/wire-types.js';
import { chatSessionKey } from '../formats/chat-completions/session-key.js';
import { GATEWAY_ONLY_FIELDS } from '../formats/shared/gateway-fields.js';
import { autoCacheWanted } from '../formats/shared/auto-cache-header.js';

/** `streamDefault`: what an omitted `stream` means when the Accept header does not say (MODELGATE_STREAM_DEFAULT). */
export function createChatCompletion(generations: GenerationParts & HitParts, streamDefault: boolean): Handler {
  return (api, ctx) => {
    const body = api.request.requestBody as ChatCompletionRequest;
    const stream = wantsStream(body.stream, ctx.get('accept'), streamDefault);
    const autoCache = autoCacheWanted(ctx.headers);
    return serveGenerationCached(generations, ctx, {
      apiFormat: 'chat_completions',
      protocol: 'chat',
      facts: chatRequestFacts(body),
      wire: nativeWireOf(ctx, body, GATEWAY_ONLY_FIELDS),
      translate: () => parseChatRequest(body, stream, autoCache),
      stream,
      renderJson: buildCompletion,
      createStreamRenderer: (identity) => new ChatStreamRenderer(identity),
      sessionKey: chatSessionKey(body, ctx.headers),
    });
  };
}
