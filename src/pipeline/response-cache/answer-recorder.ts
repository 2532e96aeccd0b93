// Records a door's answer as it is sent, through the generation response port: the JSON body, or every SSE frame the
// door's renderer makes (so the stream's events and their boundaries are kept as they were). A native lane's answer
// (the upstream's own JSON bytes or events, with the door's rewrites) is kept the same way: its bytes as the JSON
// text, its event texts as frames. The answer is kept only
// when it is whole and successful: a stream that ended with its finish frames (not an in-stream error, not a client
// gone), a JSON body, and a generation record (settlement) that says `success`.
import type { NewGeneration } from '../../db/tables/generations.js';
import type { FrameSource, WireFrame } from '../../core/frame-source.js';
import type { SseFrame } from '../../core/stream-renderer.js';
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
      stream: (source, keepAliveMs) => inner.stream(this.recording(source), keepAliveMs),
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

  /** A frame as it goes out: a rendered event, or the native lane's SSE text (whole events). */
  private keepWire(frame: WireFrame): void {
    this.keepFrames(typeof frame === 'string' ? framesOfText(frame) : [frame]);
  }

  /** A batch whose items are frames already (the native lane's event texts), kept as it goes out. */
  private async keepStep<T, E>(
    step: IteratorResult<readonly T[], E | undefined> | Promise<IteratorResult<readonly T[], E | undefined>>,
  ): Promise<IteratorResult<readonly T[], E | undefined>> {
    const taken = await step;
    if (!taken.done) for (const item of taken.value) this.keepWire(item as WireFrame);
    return taken;
  }

  /** The batches whose items are frames already, kept as they go out. */
  private recordingBatches<T, E>(
    batches: AsyncIterator<readonly T[], E | undefined>,
  ): AsyncIterator<readonly T[], E | undefined> {
    return {
      next: () => this.keepStep(batches.next()),
      // The writer stopped early (the client left): release the upstream too.
      return: async () => (await batches.return?.(undefined)) ?? { done: true, value: undefined },
    };
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

  /**
   * The stream, each frame kept as it goes out: the door's opening, each rendered event (or each of the upstream's own
   * events), and the closing. Only a stream that ended whole is an answer to replay, not an in-stream error.
   */
  private recording<T, E>(source: FrameSource<T, E>): FrameSource<T, E> {
    const { render, closing, whole } = source;
    const keep = (frames: readonly WireFrame[]): readonly WireFrame[] => {
      for (const frame of frames) this.keepWire(frame);
      return frames;
    };
    const recorded: FrameSource<T, E> = { ...source, opening: keep(source.opening ?? []) as SseFrame[] };
    if (render !== undefined) recorded.render = (item) => keep(render(item));
    else {
      recorded.batches = this.recordingBatches(source.batches);
      if (source.first !== undefined) recorded.first = this.keepStep(source.first);
    }
    recorded.closing = (end) => {
      if (whole?.(end)) this.finished = true;
      return keep(closing?.(end) ?? []);
    };
    return recorded;
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
