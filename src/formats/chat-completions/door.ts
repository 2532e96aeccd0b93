// The chat-completions door (POST /chat/completions), described once (formats/shared/front-door.ts). Its native
// lane forwards no client header; its errors are the gateway's own envelope.
import type { FrontDoor } from '../shared/front-door.js';
import { chatWithPreset } from './preset-fill.js';
import { OPENAI_RATE_LIMIT_HEADERS } from '../shared/rate-limit-headers.js';
import { buildCompletion } from './build-completion.js';
import { ChatStreamRenderer } from './chat-stream-renderer.js';
import { parseChatRequest } from './parse-request.js';
import { chatRequestFacts } from './request-facts.js';
import { chatSessionKey } from './session-key.js';
import { wantsStream } from './stream-mode.js';
import type { ChatCompletionRequest } from './wire-types.js';

export const chatDoor: FrontDoor<ChatCompletionRequest> = {
  protocol: 'chat',
  apiFormat: 'chat_completions',
  operationIds: ['createChatCompletion'],
  // The model is the body's: chat names gateway ids.
  modelOf: ({ body }) => body.model,
  // An omitted `stream` follows the Accept header, else the operator's default (stream-mode.ts).
  streamOf: ({ body, headers }, { streamDefault }) =>
    wantsStream(body.stream, headers.accept, streamDefault) ? 'sse' : undefined,
  withPreset: chatWithPreset,
  readFacts: (body) => chatRequestFacts(body),
  sessionKey: chatSessionKey,
  clientHeaders: () => ({}),
  parse: (body, { stream, autoCache }) => parseChatRequest(body, stream, autoCache),
  renderers: () => ({
    renderJson: buildCompletion,
    createStreamRenderer: (identity) => new ChatStreamRenderer(identity),
  }),
  errorShapes: [],
  rateLimitHeaders: OPENAI_RATE_LIMIT_HEADERS,
};
