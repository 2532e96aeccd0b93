// Checks of a Server-Sent Events answer. Chat-completions streams have a framing the seed API spells out (first
// chunk carries the role, one id per stream, the last chunk carries usage, `data: [DONE]` ends it) and an in-band
// error chunk shape (`finish_reason: "error"` with `error.code` and `error.message`); other event streams in the
// document (Messages, Responses, ... as they land) are only required to carry JSON events.
import { readArray, readRecord } from '../providers/payload-readers.js';
import { createSseParser } from '../providers/sse/parse-sse.js';
import type { OpenApiDocument, Operation } from './openapi-document.js';
import type { SchemaValidator } from './schema-validator.js';

export type StreamCheck = 'response_schema_conformance' | 'stream_framing' | 'mid_stream_error';

export interface StreamFailure {
  check: StreamCheck;
  message: string;
}

/** Operations whose event stream is chat-completions chunks, and the schema of one chunk. */
const CHAT_STREAMS: Record<string, string> = { createChatCompletion: 'ChatCompletionChunk' };

/** The chunk schema pointer when the operation streams chat-completions chunks and the document defines them. */
export function chatChunkPointer(doc: OpenApiDocument, op: Operation): string | undefined {
  const name = CHAT_STREAMS[op.operationId];
  return name && doc.raw.components?.schemas?.[name] ? `#/components/schemas/${name}` : undefined;
}

/** Whether the operation documents an event-stream success answer (and so gets the stream checks). */
export function streamsEvents(op: Operation): boolean {
  return Object.entries(op.responses).some(([status, r]) => status.startsWith('2') && 'text/event-stream' in r.content);
}

export function eventStreamFailures(
  doc: OpenApiDocument,
  validator: SchemaValidator,
  op: Operation,
  body: string,
): StreamFailure[] {
  const parser = createSseParser();
  const events = [...parser.push(body), ...parser.end()];
  const chunkPointer = chatChunkPointer(doc, op);
  if (!chunkPointer) return genericProblems(events.map((e) => e.data));
  if (events.length === 0) return [{ check: 'stream_framing', message: 'empty event stream' }];
  const failures: StreamFailure[] = [];
  const done = events.findIndex((e) => e.data === '[DONE]');
  const chunks: unknown[] = [];
  for (const [i, event] of events.entries()) {
    if (event.data === '[DONE]') continue;
    let chunk: unknown;
    try {
      chunk = JSON.parse(event.data);
    } catch {
      return [{ check: 'response_schema_conformance', message: `event ${i} is not JSON: ${event.data.slice(0, 120)}` }];
    }
    const result = validator.validate(chunkPointer, chunk);
    if (!result.valid)
      return [
        {
          check: 'response_schema_conformance',
          message: `event ${i} does not match ${chunkPointer}: ${result.errors.join('; ')}`,
        },
      ];
    chunks.push(chunk);
  }
  const framing = framingProblem(events.length, done, chunks);
  if (framing) failures.push({ check: 'stream_framing', message: framing });
  const error = errorChunkProblem(chunks);
  if (error) failures.push({ check: 'mid_stream_error', message: error });
  return failures;
}

function framingProblem(eventCount: number, done: number, chunks: unknown[]): string | undefined {
  if (done === -1) return `stream does not end with data: [DONE] (${eventCount} events)`;
  if (done !== eventCount - 1) return `${eventCount - 1 - done} event(s) after data: [DONE]`;
  if (chunks.length === 0) return 'no chunk before data: [DONE]';
  const ids = new Set(chunks.map((c) => readRecord(c)?.id));
  if (ids.size > 1) return `one stream carries ${ids.size} ids: ${[...ids].map((id) => JSON.stringify(id)).join(', ')}`;
  const firstChoice = readRecord(readArray(readRecord(chunks[0])?.choices)?.[0]);
  if (readRecord(firstChoice?.delta)?.role !== 'assistant')
    return `the first chunk does not carry delta.role "assistant": ${JSON.stringify(chunks[0]).slice(0, 200)}`;
  const withUsage = chunks.flatMap((c, i) => (readRecord(c)?.usage ? [i] : []));
  if (!withUsage.includes(chunks.length - 1)) return 'the last chunk before data: [DONE] carries no usage';
  if (withUsage.length > 1)
    return `usage appears in ${withUsage.length} chunks (chunks ${withUsage.join(', ')}); only the last may carry it`;
  return undefined;
}

/** A failure after the stream began: `finish_reason: "error"` with `error.{code,message}`, as the last chunk. */
function errorChunkProblem(chunks: unknown[]): string | undefined {
  for (const [i, chunk] of chunks.entries()) {
    for (const item of readArray(readRecord(chunk)?.choices) ?? []) {
      const choice = readRecord(item);
      if (choice === undefined) continue;
      const failed = choice.finish_reason === 'error';
      if (!failed && choice.error === undefined) continue;
      if (!failed)
        return `chunk ${i} carries choices[${choice.index}].error but finish_reason ${JSON.stringify(choice.finish_reason)}, not "error"`;
      const error = readRecord(choice.error);
      if (typeof error?.code !== 'string' || typeof error?.message !== 'string') {
        return `chunk ${i} has finish_reason "error" without error.code and error.message strings: ${JSON.stringify(choice).slice(0, 200)}`;
      }
      if (i !== chunks.length - 1)
        return `the error chunk (${i}) is followed by ${chunks.length - 1 - i} more chunk(s); a mid-stream error ends the stream`;
    }
  }
  return undefined;
}

/** Streams of other formats: every `data:` payload is JSON (`[DONE]` aside). */
function genericProblems(data: string[]): StreamFailure[] {
  if (data.length === 0) return [{ check: 'stream_framing', message: 'empty event stream' }];
  const bad = data.findIndex((d) => d !== '[DONE]' && !isJson(d));
  return bad === -1
    ? []
    : [{ check: 'response_schema_conformance', message: `event ${bad} is not JSON: ${data[bad].slice(0, 120)}` }];
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
