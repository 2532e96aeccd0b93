// Records a door's answer as it is sent, through the generation response port: the JSON body, or every SSE frame the
// door's renderer makes (so the stream's events and their boundaries are kept as they were). The answer is kept only
// when it is whole and successful: a stream that ended with its finish frames (not an in-stream error, not a client
// gone), a JSON body, and a generation record (settlement) that says `success`.
import type { NewGeneration } from '../../db/tables/generations.js';
import type { SseFrame, StreamRenderer } from '../../core/stream-renderer.js';
import type { GenerationResponse } from '../serve-generation.js';
import type { CachedAnswer } from './cached-answer.js';
import type { RecordWatcher, ResponseCache } from './response-cache.js';

/** The answer's headers a replay repeats. */
const ANSWER_HEADERS = ['x-modelgate-provider', 'x-modelgate-model'];

export class AnswerRecorder implements RecordWatcher {
  private generationId?: string;
  private readonly headers: Record<string, string> = {};
  private json?: string;
  private readonly frames: SseFrame[] = [];
  private bytes = 0;
  private finished = false;
  private record?: NewGeneration;

  constructor(private readonly cache: ResponseCache) {}

  wrap(inner: GenerationResponse): GenerationResponse {
    return {
      headers: (headers) => {
        const id = headers['x-generation-id'];
        if (id !== undefined && this.generationId === undefined) {
          this.generationId = id;
          this.cache.watch(id, this);
        }
        for (const name of ANSWER_HEADERS) if (headers[name] !== undefined) this.headers[name] = headers[name];
        inner.headers(headers);
      },
      json: (body) => {
        const text = JSON.stringify(body);
        this.bytes += text.length;
        if (this.bytes <= this.cache.maxEntryBytes) this.json = text;
        this.finished = true;
        inner.json(body);
      },
      events: (stream, renderer, keepAliveMs, first) => inner.events(stream, this.recording(renderer), keepAliveMs, first),
    };
  }

  settled(record: NewGeneration): void {
    this.record = record;
  }

  /** Stops watching; the answer to keep, when it is whole, successful and within the entry bound. */
  finish(): CachedAnswer | undefined {
    if (this.generationId !== undefined) this.cache.unwatch(this.generationId);
    const record = this.record;
    if (!this.finished || !record || record.status !== 'success' || this.bytes > this.cache.maxEntryBytes) return undefined;
    if (this.json === undefined && this.frames.length === 0) return undefined;
    return {
      generationId: this.generationId!,
      model: record.model,
      provider: record.provider,
      upstreamModel: record.upstream_model,
      headers: this.headers,
      accessMode: record.access_mode,
      costNanos: BigInt(record.cost_nanos ?? 0n),
      finishReason: record.finish_reason ?? null,
      ...(this.json !== undefined ? { json: this.json } : { frames: this.frames }),
    };
  }

  /** The door's renderer, its frames kept as they go out. */
  private recording(renderer: StreamRenderer): StreamRenderer {
    const keep = (frames: SseFrame[]): SseFrame[] => {
      for (const frame of frames) {
        this.bytes += frame.data.length + (frame.event?.length ?? 0);
        // Past the bound the answer will not be kept: stop holding its frames.
        if (this.bytes <= this.cache.maxEntryBytes) this.frames.push(frame);
        else this.frames.length = 0;
      }
      return frames;
    };
    return {
      keepAlive: renderer.keepAlive,
      start: () => keep(renderer.start()),
      event: (event) => keep(renderer.event(event)),
      end: (end) => {
        // Only a stream that finished is whole: an in-stream error is not an answer to replay.
        if (end.type === 'finish') this.finished = true;
        return keep(renderer.end(end));
      },
    };
  }
}
