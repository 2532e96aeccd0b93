// A precise client for one connection at a time, with no load generator in the way: latency with sub-millisecond
// resolution, time to the first streamed content chunk, and how long each stamped chunk took from the
// mock's write to our read (a system that holds chunks back shows it here). Also validates every answer. Streams
// are read in the format of the door they came through (stream-formats.ts).
import http from 'node:http';
import { SseEventSplitter } from './sse-events.js';
import { END_EVENT, readStreamEvent, type StreamFormat } from './stream-formats.js';
import { COMPLETION_TOKENS, readStamp } from '../mock-replies.js';
import { percentile, round } from './stats.js';

export interface ProbeTarget {
  url: string;
  headers: Record<string, string>;
}

export interface ProbeSample {
  totalMs: number;
  /** Streams: request start → first non-empty content chunk. */
  firstChunkMs?: number;
  /** Streams: mock write → probe read of the first stamped chunk (includes the system's stream set-up). */
  firstChunkDelayMs?: number;
  /** Streams: the same for every later stamped chunk: where a system that holds chunks back shows. */
  chunkDelaysMs: number[];
}

export interface ProbeSummary {
  requests: number;
  failures: number;
  firstFailure?: string;
  latency?: { p50: number; p99: number; max: number };
  firstChunk?: { p50: number; p99: number; max: number };
  firstChunkDelay?: { p50: number; p99: number; max: number };
  /** Later chunks only (see ProbeSample). */
  chunkDelay?: { p50: number; p99: number; max: number };
}

const MONOTONIC_TO_MS = 1e-6;

export function probeOnce(
  agent: http.Agent,
  target: ProbeTarget,
  body: string,
  stream: boolean,
  format: StreamFormat = 'chat',
): Promise<ProbeSample> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const req = http.request(target.url, {
      method: 'POST',
      agent,
      headers: { ...target.headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    });
    req.setTimeout(10_000, () => req.destroy(new Error('probe request timed out after 10 s')));
    req.once('error', reject);
    req.once('response', (res) => {
      res.setEncoding('utf8');
      const splitter = new SseEventSplitter();
      let text = '';
      let firstChunkMs: number | undefined;
      let firstChunkDelayMs: number | undefined;
      let contentChunks = 0;
      let done = false;
      const chunkDelaysMs: number[] = [];
      res.on('data', (piece: string) => {
        const now = process.hrtime.bigint();
        if (res.statusCode !== 200 || !stream) {
          text += piece;
          return;
        }
        for (const data of splitter.push(piece)) {
          const { content, end } = readStreamEvent(format, data);
          if (end) done = true;
          if (content === undefined) continue;
          contentChunks++;
          firstChunkMs ??= Number(now - started) * MONOTONIC_TO_MS;
          const sentAt = readStamp(content);
          if (sentAt === undefined) continue;
          const delay = Number(now - sentAt) * MONOTONIC_TO_MS;
          if (contentChunks === 1) firstChunkDelayMs = delay;
          else chunkDelaysMs.push(delay);
        }
      });
      res.once('error', reject);
      res.once('end', () => {
        const totalMs = Number(process.hrtime.bigint() - started) * MONOTONIC_TO_MS;
        if (res.statusCode !== 200) return reject(new Error(`HTTP ${res.statusCode}: ${text.slice(0, 300)}`));
        if (stream && (!done || contentChunks !== COMPLETION_TOKENS)) {
          return reject(
            new Error(
              `stream ended with ${contentChunks}/${COMPLETION_TOKENS} content chunks${done ? '' : ` and no ${END_EVENT[format]}`}`,
            ),
          );
        }
        if (!stream && !validCompletion(text)) return reject(new Error(`not a chat completion: ${text.slice(0, 300)}`));
        resolve({ totalMs, firstChunkMs, firstChunkDelayMs, chunkDelaysMs });
      });
    });
    req.end(body);
  });
}

function validCompletion(text: string): boolean {
  try {
    const parsed = JSON.parse(text) as { choices?: { message?: { content?: unknown } }[] };
    return typeof parsed.choices?.[0]?.message?.content === 'string';
  } catch {
    return false;
  }
}

export interface ProbeLoopOptions {
  target: ProbeTarget;
  body: string;
  stream: boolean;
  /** How to read the stream (default: chat-completions chunks). */
  format?: StreamFormat;
  /** Unmeasured requests first (connection set-up, JIT). */
  warmupRequests: number;
  maxRequests: number;
  /** Stop after this long, or when `stop` returns true. */
  seconds: number;
  stop?: () => boolean;
}

/** Sequential requests over one keep-alive connection; a failure is counted, never thrown. */
export async function runProbe(options: ProbeLoopOptions): Promise<ProbeSummary> {
  const client = new ProbeClient(options.target);
  try {
    const slice = await client.run(options);
    return summarizeProbe(slice.samples, slice.failures, slice.firstFailure);
  } finally {
    client.close();
  }
}

export interface ProbeSlice {
  samples: ProbeSample[];
  failures: number;
  firstFailure?: string;
}

/** One client's keep-alive connection to one target, kept across several runs (the slices of interleaved probes). */
export class ProbeClient {
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

  constructor(private readonly target: ProbeTarget) {}

  async run(options: Omit<ProbeLoopOptions, 'target'>): Promise<ProbeSlice> {
    const samples: ProbeSample[] = [];
    let failures = 0;
    let firstFailure: string | undefined;
    for (let i = 0; i < options.warmupRequests; i++) {
      await probeOnce(this.agent, this.target, options.body, options.stream, options.format).catch(() => undefined);
    }
    const deadline = performance.now() + options.seconds * 1000;
    while (samples.length + failures < options.maxRequests && performance.now() < deadline && !options.stop?.()) {
      try {
        samples.push(await probeOnce(this.agent, this.target, options.body, options.stream, options.format));
      } catch (err) {
        failures++;
        firstFailure ??= (err as Error).message;
      }
    }
    return { samples, failures, ...(firstFailure ? { firstFailure } : {}) };
  }

  close(): void {
    this.agent.destroy();
  }
}

function spread(values: number[]): { p50: number; p99: number; max: number } | undefined {
  if (values.length === 0) return undefined;
  return {
    p50: round(percentile(values, 50)!, 3),
    p99: round(percentile(values, 99)!, 3),
    max: round(Math.max(...values), 3),
  };
}

export function summarizeProbe(samples: ProbeSample[], failures: number, firstFailure?: string): ProbeSummary {
  return {
    requests: samples.length,
    failures,
    ...(firstFailure ? { firstFailure } : {}),
    latency: spread(samples.map((s) => s.totalMs)),
    firstChunk: spread(samples.flatMap((s) => (s.firstChunkMs === undefined ? [] : [s.firstChunkMs]))),
    firstChunkDelay: spread(samples.flatMap((s) => (s.firstChunkDelayMs === undefined ? [] : [s.firstChunkDelayMs]))),
    chunkDelay: spread(samples.flatMap((s) => s.chunkDelaysMs)),
  };
}
