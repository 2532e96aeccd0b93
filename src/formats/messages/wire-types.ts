// The Messages door's wire types, taken from the OpenAPI document that spec/messages/ emits. The door's schema also
// accepts block types it does not model (`MessagesOtherBlock`, ...: they go to Anthropic natively); the types the
// translated lane works with leave those out, and request-facts.ts refuses them before a request is translated.
import type * as Generated from '../../../generated/openapi-types.js';

/** A generated union without its open member (the one whose `type` is any string). */
type Modelled<T> = T extends { type: infer K } ? (string extends K ? never : T) : T;

export type {
  MessagesTextBlock,
  MessagesImageBlock,
  MessagesDocumentBlock,
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

export type MessagesToolResultBlock = Omit<Generated.MessagesToolResultBlock, 'content'> & {
  content?: string | Modelled<Generated.MessagesToolResultContent>[];
};
export type MessagesInputBlock =
  | Exclude<Modelled<Generated.MessagesInputBlock>, Generated.MessagesToolResultBlock>
  | MessagesToolResultBlock;
export type MessagesInputMessage = Omit<Generated.MessagesInputMessage, 'content'> & {
  content: string | MessagesInputBlock[];
};
export type MessagesRequest = Omit<Generated.MessagesRequest, 'messages'> & { messages: MessagesInputMessage[] };
export type MessagesCountTokensRequest = Omit<Generated.MessagesCountTokensRequest, 'messages'> & {
  messages: MessagesInputMessage[];
};
