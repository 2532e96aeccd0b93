// Records a door's answer as it is sent, through the generation response port: the JSON body, or every SSE frame the
// door's renderer makes (so the stream's events and their boundaries are kept as they were). A native lane's answer
// (the upstream's own JSON bytes or events, with the door's rewrites) is kept the same way: its bytes as the JSON
// text, its event texts as frames. The answer is kept only
// when it is whole and successful: a stream that ended with its finish frames (not an in-stream error, not a client
// gone), a JSON body, and a generation record (settlement) that says `success`.
import type { NewGeneration } from '../../db/tables/generations.js';
import type { SseFrame, StreamRenderer } from '../../core/stream-renderer.js';
import type { NativeStreamEnd } from '../native-stream.js';
import type { GenerationResponse } from '../serve-generation.js';
import type { CachedAnswer } from './cached-answer.js';
import type { RecordWatcher, ResponseCache } from './response-cache.js';

/** The answer's headers a replay repeats: who served it, and what was changed or left out of the request on the way. */
const ANSWER_HEADERS = ['x-modelgate-provider', 'x-modelgate-model', 'x-modelgate-warning'];

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
      rate: (report) => inner.rate(report),
      json: (body) => {
        this.keepJson(JSON.stringify(body));
        inner.json(body);
      },
      jsonBytes: (body) => {
        this.keepJson(body.toString('utf8'));
        inner.jsonBytes(body);
      },
      events: (stream, renderer, keepAliveMs, first) =>
        inner.events(stream, this.recording(renderer), keepAliveMs, first),
      frames: (stream, renderer, keepAliveMs, first) =>
        inner.frames(this.recordingTexts(stream), this.recording(renderer), keepAliveMs, first && this.keepStep(first)),
    };
  }

  private keepJson(text: string): void {
    this.bytes += text.length;
    if (this.bytes <= this.cache.maxEntryBytes) this.json = text;
    this.finished = true;
  }

  private keepFrames(frames: SseFrame[]): SseFrame[] {
    for (const frame of frames) {
      this.bytes += frame.data.length + (frame.event?.length ?? 0);
      // Past the bound the answer will not be kept: stop holding its frames.
      if (this.bytes <= this.cache.maxEntryBytes) this.frames.push(frame);
      else this.frames.length = 0;
    }
    return frames;
  }

  /** The native lane's first step (read in the failover window), kept as it goes out. */
  private async keepStep(
    first:
      | IteratorResult<string[], NativeStreamEnd | undefined>
      | Promise<IteratorResult<string[], NativeStreamEnd | undefined>>,
  ): Promise<IteratorResult<string[], NativeStreamEnd | undefined>> {
    const step = await first;
    this.keepNativeStep(step);
    return step;
  }

  private keepNativeStep(step: IteratorResult<string[], NativeStreamEnd | undefined>): void {
    if (!step.done) for (const text of step.value) this.keepFrames(framesOfText(text));
    // Whole when the upstream's events ended without a failure left for the door to tell (the record says whether
    // one the events told was an error).
    else if (step.value && !step.value.failure) this.finished = true;
  }

  /** The native lane's event texts, kept as frames as they go out. */
  private async *recordingTexts(
    stream: AsyncGenerator<string[], NativeStreamEnd | undefined>,
  ): AsyncGenerator<string[], NativeStreamEnd | undefined> {
    try {
      for (;;) {
        const step = await stream.next();
        this.keepNativeStep(step);
        if (step.done) return step.value;
        yield step.value;
      }
    } finally {
      // The writer stopped early (the client left): release the upstream too.
      await stream.return(undefined);
    }
  }

  settled(record: NewGeneration): void {
    this.record = record;
  }

  /** Stops watching; the answer to keep, when it is whole, successful and within the entry bound. */
  finish(): CachedAnswer | undefined {
    if (this.generationId !== undefined) this.cache.unwatch(this.generationId);
    const record = this.record;
    if (!this.finished || !record || record.status !== 'success' || this.bytes > this.cache.maxEntryBytes)
      return undefined;
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
    const keep = (frames: SseFrame[]): SseFrame[] => this.keepFrames(frames);
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

/** SSE text as the native lane writes it (native-protocol.ts sseText: whole events) → its frames. */
export function framesOfText(text: string): SseFrame[] {
  const frames: SseFrame[] = [];
  for (const block of text.split('\n\n')) {
    let event: string | undefined;
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith('event:')) event = line.slice(6).trimStart();
      else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
    }
    if (data.length > 0)
      frames.push(event === undefined ? { data: data.join('\n') } : { event, data: data.join('\n') });
  }
  return frames;
}
