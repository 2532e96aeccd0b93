// Modelgate client SDK: a typed client for every operation, plus chat helpers and the stream reader.
export { createModelgateClient, unwrap, type ModelgateClient, type ModelgateClientOptions } from './client.js';
export { createChatCompletion, streamChatCompletion, type ChatCallOptions } from './chat.js';
export { readChatCompletionChunks, StreamFormatError } from './sse-chunks.js';
export { ModelgateError } from './errors.js';
export type * from './openapi-types.js';
