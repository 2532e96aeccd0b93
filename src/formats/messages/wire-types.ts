// The Messages door's wire types, taken from the OpenAPI document that spec/messages/ emits.
export type {
  MessagesRequest,
  MessagesCountTokensRequest,
  MessagesInputMessage,
  MessagesInputBlock,
  MessagesTextBlock,
  MessagesImageBlock,
  MessagesToolResultBlock,
  MessagesTool,
  MessagesToolChoice,
  MessagesThinkingConfig,
  MessagesResponse,
  MessagesOutputBlock,
  MessagesUsage,
  MessagesErrorResponse,
  MessagesErrorType,
  MessagesStreamEvent,
} from '../../../generated/openapi-types.js';
