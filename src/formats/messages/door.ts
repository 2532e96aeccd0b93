// The Anthropic Messages door (POST /messages), described once (formats/shared/front-door.ts): its own error shape,
// also on the model routes for Anthropic clients, and the `anthropic-*` headers its native lane forwards.
import type { FrontDoor } from '../shared/front-door.js';
import { messagesWithPreset } from './preset-fill.js';
import { ANTHROPIC_RATE_LIMIT_HEADERS } from '../shared/rate-limit-headers.js';
import { buildMessage } from './build-message.js';
import { anthropicClientHeaders } from './client-headers.js';
import { MESSAGES_ERROR_SHAPE, MODELS_ANTHROPIC_ERROR_SHAPE } from './error-body.js';
import { MessagesStreamRenderer } from './messages-stream-renderer.js';
import { gatewayModelId } from './model-name.js';
import { parseMessagesRequest } from './parse-request.js';
import { messagesRequestFacts } from './request-facts.js';
import { messagesSessionKey } from './session-key.js';
import type { MessagesRequest } from './wire-types.js';

export const messagesDoor: FrontDoor<MessagesRequest> = {
  protocol: 'messages',
  apiFormat: 'messages',
  operationIds: ['createMessage'],
  // Claude names (`claude-sonnet-5-5`, dated snapshots) are looked up in the catalog (model-name.ts).
  modelOf: ({ body }, { catalog }) => gatewayModelId(catalog, body.model),
  // Anthropic's default: one JSON object unless `stream` is true.
  streamOf: ({ body }) => (body.stream === true ? 'sse' : undefined),
  withPreset: messagesWithPreset,
  readFacts: messagesRequestFacts,
  sessionKey: messagesSessionKey,
  clientHeaders: anthropicClientHeaders,
  // Cache breakpoints are the client's own (`cache_control`): no automatic caching to add.
  parse: (body, { model, stream }) => parseMessagesRequest(body, model, stream),
  renderers: () => ({
    renderJson: buildMessage,
    createStreamRenderer: (identity, estimatedPromptTokens) =>
      new MessagesStreamRenderer(identity, estimatedPromptTokens),
  }),
  errorShapes: [MESSAGES_ERROR_SHAPE, MODELS_ANTHROPIC_ERROR_SHAPE],
  rateLimitHeaders: ANTHROPIC_RATE_LIMIT_HEADERS,
};
