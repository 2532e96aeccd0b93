// The chat-completions door's wire types, taken from the OpenAPI document that spec/chat emits. Never hand-write these
// shapes. They are this door's alone: inside the gateway a request is a GenerationRequest (src/core).
import type { components } from '../../../generated/openapi-types.js';

type Schemas = components['schemas'];

/** A generated union without its open member (the one whose `type` is any string). */
type Modelled<T> = T extends { type: infer K } ? (string extends K ? never : T) : T;

export type ChatCompletionRequest = Schemas['ChatCompletionRequest'];
export type ChatMessage = Schemas['ChatMessage'];
/** The part types the gateway models; the door also accepts any other (OtherContentPart: native lane only). */
export type ContentPart = Modelled<Schemas['ContentPart']>;
export type OtherContentPart = Schemas['OtherContentPart'];
export type ToolDefinition = Schemas['ToolDefinition'];
export type ToolCall = Schemas['ToolCall'];
export type ReasoningConfig = Schemas['ReasoningConfig'];
export type ReasoningDetail = Schemas['ReasoningDetail'];
export type ChatCompletion = Schemas['ChatCompletion'];
export type ChatCompletionChoice = Schemas['ChatCompletionChoice'];
export type AssistantResponseMessage = Schemas['AssistantResponseMessage'];
export type ChatCompletionChunk = Schemas['ChatCompletionChunk'];
export type ChunkDelta = Schemas['ChunkDelta'];
export type ToolCallDelta = Schemas['ToolCallDelta'];
export type Usage = Schemas['Usage'];
