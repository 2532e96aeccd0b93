// Responses API wire types, taken from the OpenAPI document that spec/responses emits. Never hand-write these shapes.
// The door's schema also accepts item and part types it does not model (`ResponseOtherItem`, ...: they go to OpenAI
// natively); the types the translated lane works with leave those out, and request-facts.ts refuses them before a
// request is translated.
import type { components } from '../../../generated/openapi-types.js';

type Schemas = components['schemas'];

/** A generated union without its open member (the one whose `type` is any string). */
type Modelled<T> = T extends { type: infer K } ? (string extends K ? never : T) : T;

export type ResponseInputContent = Modelled<Schemas['ResponseInputContent']>;
export type ResponseInputMessage = Omit<Schemas['ResponseInputMessage'], 'content'> & {
  content: string | ResponseInputContent[];
};
export type ResponseFunctionCallOutputItem = Omit<Schemas['ResponseFunctionCallOutputItem'], 'output'> & {
  output: string | ResponseInputContent[];
};
export type ResponseInputItem =
  | ResponseInputMessage
  | Schemas['ResponseFunctionCallItem']
  | ResponseFunctionCallOutputItem
  | Schemas['ResponseReasoningItem'];
export type ResponseRequest = Omit<Schemas['ResponseRequest'], 'input'> & { input: string | ResponseInputItem[] };
export type ResponseReasoningItem = Schemas['ResponseReasoningItem'];
export type ResponseFunctionCallItem = Schemas['ResponseFunctionCallItem'];
export type ResponseOutputItem = Schemas['ResponseOutputItem'];
export type ResponseOutputMessage = Schemas['ResponseOutputMessage'];
export type ResponseObject = Schemas['ResponseObject'];
export type ResponseUsage = Schemas['ResponseUsage'];
export type ResponseTool = Schemas['ResponseTool'];
