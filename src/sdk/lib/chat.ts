// Chat completions with the result type fixed by the call: one ChatCompletion, or an async iterator of chunks.
// Both set `stream` explicitly, because the gateway's default for an omitted `stream` depends on the Accept header.
import type { ModelgateClient } from './client.js';
import { ModelgateError } from './errors.js';
import type { ChatCompletion, ChatCompletionChunk, ChatCompletionRequest } from './openapi-types.js';
import { readChatCompletionChunks } from './sse-chunks.js';

export interface ChatCallOptions {
  /** Cancels the request; for a stream, also the upstream generation. */
  signal?: AbortSignal;
  /** Sent as `X-Task-ID`. */
  taskId?: string;
}

export async function createChatCompletion(
  client: ModelgateClient,
  request: Omit<ChatCompletionRequest, 'stream'>,
  options: ChatCallOptions = {},
): Promise<ChatCompletion> {
  const { data, error, response } = await client.POST('/chat/completions', {
    body: { ...request, stream: false },
    headers: headersFor('application/json', options),
    signal: options.signal,
  });
  if (!response.ok) throw new ModelgateError(response.status, error, response.headers);
  return data as ChatCompletion;
}

/**
 * Streams a completion. Errors before the stream starts throw ModelgateError; a failure after it started arrives as
 * a final chunk whose `finish_reason` is `error` (with `error` set), which is yielded like any other chunk.
 * Breaking out of the loop cancels the request.
 */
export async function* streamChatCompletion(
  client: ModelgateClient,
  request: Omit<ChatCompletionRequest, 'stream'>,
  options: ChatCallOptions = {},
): AsyncGenerator<ChatCompletionChunk> {
  const { data, error, response } = await client.POST('/chat/completions', {
    body: { ...request, stream: true },
    headers: headersFor('text/event-stream', options),
    signal: options.signal,
    parseAs: 'stream',
  });
  if (!response.ok || !data) throw new ModelgateError(response.status, error, response.headers);
  yield* readChatCompletionChunks(data);
}

function headersFor(accept: string, options: ChatCallOptions): Record<string, string> {
  return { Accept: accept, ...(options.taskId ? { 'X-Task-ID': options.taskId } : {}) };
}
