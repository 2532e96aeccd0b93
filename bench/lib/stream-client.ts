// The load test's client (bench/load-streams.ts): many streamed chat completions at once over node:http with a
// keep-alive agent and no socket cap, each read as it arrives (not buffered whole) and reduced to what the report
// needs: when its first chunk came, how it ended, and the cost its usage chunk reported. Cheap per event, so that
// the client is not what limits a thousand streams.
import http from 'node:http';
import { usdToNanos } from '../../src/core/money.js';
import { SseEventSplitter } from './sse-events.js';

export interface StreamRecord {
  /** Which credential sent it (index into the keys given). */
  keyIndex: number;
  status: number;
  /** ms from sending the request to its first body bytes, and to its end; NaN when they never came. */
  firstChunkMs: number;
  durationMs: number;
  /** The stream ended with `data: [DONE]`. */
  done: boolean;
  /** The usage chunk's `cost`, nano-dollars; undefined without one. */
  costNanos?: bigint;
  /** What went wrong, for the report: a transport error or the error body. */
  error?: string;
}

/** Reduces one stream's events as they arrive: the cost of the usage chunk and whether [DONE] came. */
export class StreamTally {
  done = false;
  costNanos: bigint | undefined;
  private readonly splitter = new SseEventSplitter();

  push(text: string): void {
    for (const data of this.splitter.push(text)) {
      if (data === '[DONE]') {
        this.done = true;
        continue;
      }
      // Only the usage chunk is parsed: every other event is skipped by a substring check.
      if (!data.includes('"usage"')) continue;
      const cost = (JSON.parse(data) as { usage?: { cost?: unknown } }).usage?.cost;
      if (typeof cost === 'number') this.costNanos = usdToNanos(String(cost));
    }
  }
}

export interface StreamRequest {
  url: string;
  keys: readonly string[];
  body: string;
}

/** Sends stream number `index` with key `index % keys.length` and resolves when it ended, however it ended. */
export function sendStream(agent: http.Agent, request: StreamRequest, index: number): Promise<StreamRecord> {
  const keyIndex = index % request.keys.length;
  const started = performance.now();
  return new Promise((resolve) => {
    let firstChunkMs = NaN;
    const tally = new StreamTally();
    let errorBody = '';
    const finish = (status: number, error?: string) =>
      resolve({
        keyIndex,
        status,
        firstChunkMs,
        durationMs: performance.now() - started,
        done: tally.done,
        costNanos: tally.costNanos,
        ...(error ? { error } : {}),
      });
    const req = http.request(
      request.url,
      {
        method: 'POST',
        agent,
        headers: {
          authorization: `Bearer ${request.keys[keyIndex]}`,
          'content-type': 'application/json',
          accept: 'text/event-stream',
        },
      },
      (res) => {
        const status = res.statusCode ?? 0;
        res.setEncoding('utf8');
        res.on('data', (text: string) => {
          if (Number.isNaN(firstChunkMs)) firstChunkMs = performance.now() - started;
          if (status === 200) tally.push(text);
          else if (errorBody.length < 2000) errorBody += text;
        });
        res.on('end', () => finish(status, status === 200 ? undefined : errorBody.slice(0, 300)));
        res.on('error', (err) => finish(status, err.message));
      },
    );
    req.on('error', (err) => finish(0, err.message));
    // A stream silent this long is stuck: the report counts it instead of the run hanging.
    req.setTimeout(120_000, () => req.destroy(new Error('silent for 120 s')));
    req.end(request.body);
  });
}

/** `count` streams started together; resolves with every record, in order, and the wall time of the whole batch. */
export async function runStreams(
  request: StreamRequest,
  count: number,
): Promise<{ records: StreamRecord[]; wallMs: number }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
  try {
    const started = performance.now();
    const records = await Promise.all(Array.from({ length: count }, (_, i) => sendStream(agent, request, i)));
    return { records, wallMs: performance.now() - started };
  } finally {
    agent.destroy();
  }
}
