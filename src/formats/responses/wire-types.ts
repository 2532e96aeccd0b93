// Responses API wire types, taken from the OpenAPI document that spec/responses emits. Never hand-write these shapes.
import type { components } from '../../../generated/openapi-types.js';

type Schemas = components['schemas'];

export type ResponseRequest = Schemas['ResponseRequest'];
export type ResponseInputItem = Schemas['ResponseInputItem'];
export type ResponseInputContent = Schemas['ResponseInputContent'];
export type ResponseInputMessage = Schemas['ResponseInputMessage'];
export type ResponseReasoningItem = Schemas['ResponseReasoningItem'];
export type ResponseFunctionCallItem = Schemas['ResponseFunctionCallItem'];
export type ResponseOutputItem = Schemas['ResponseOutputItem'];
export type ResponseOutputMessage = Schemas['ResponseOutputMessage'];
export type ResponseObject = Schemas['ResponseObject'];
export type ResponseUsage = Schemas['ResponseUsage'];
export type ResponseTool = Schemas['ResponseTool'];
