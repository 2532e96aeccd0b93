// The read loop both lanes share over an upstream's SSE batches: each batch goes through the lane's `take` (meter,
// keep what the client sees, say when the stream must end), non-empty results are yielded, and the lane's end flush
// follows a stream read to its end. Read by hand, not with for-await: leaving a for-await would close the body, and a
// drain reads on after the consumer stopped. A failure before anything was yielded is thrown as a GatewayError (an
// ordinary error response, or a failed attempt routing fails over from).
import type { SseEvent } from '../providers/adapter.js';
import { GatewayError } from '../core/gateway-error.js';

/** What the lane learns from the read: whether it ended, whether the client got anything, the error that broke it. */
export interface BatchProgress {
  /** The upstream stream was read to its end, or failed. */
  ended: boolean;
  yielded: boolean;
  broken?: unknown;
}

export async function* yieldBatches<T>(
  batches: AsyncGenerator<SseEvent[]>,
  progress: BatchProgress,
  lane: {
    signal: { readonly aborted: boolean };
    /** Takes one upstream event into `out`; false once the stream must end. */
    take: (sse: SseEvent, out: T[]) => boolean;
    /** Takes what the lane held back until the upstream's end into `out`. */
    end: (out: T[]) => void;
    /** Whether the attempt already counts as answered (a routed stream past its failover window). */
    committed?: () => boolean;
  },
): AsyncGenerator<T[], void> {
  const { signal } = lane;
  let open = true;
  for (;;) {
    const step = await batches.next();
    if (step.done) {
      progress.ended = true;
      break;
    }
    const out: T[] = [];
    for (const sse of step.value) {
      open = lane.take(sse, out);
      if (!open) break;
    }
    // Once the client is gone nothing is rendered: what is left is metered (drained) or dropped.
    if (signal.aborted) return;
    if (out.length > 0) {
      progress.yielded = true;
      yield out;
    }
    if (!open) return;
  }
  if (!open || !progress.ended) return;
  const out: T[] = [];
  lane.end(out);
  if (out.length > 0 && !signal.aborted) {
    progress.yielded = true;
    yield out;
  }
}

/** A read that threw: a GatewayError when nothing reached the client yet (and the attempt is not committed). */
export function failedRead(
  err: unknown,
  progress: BatchProgress,
  signal: { readonly aborted: boolean },
  committed?: () => boolean,
): void {
  progress.ended = true;
  progress.broken = err;
  if (!progress.yielded && !signal.aborted && !committed?.()) {
    throw new GatewayError(
      502,
      `Upstream stream failed before its first event: ${(err as Error)?.message ?? 'connection error'}`,
      {
        reason: 'upstream_stream_failed',
      },
    );
  }
}
