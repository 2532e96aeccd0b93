// Step 6 for streams on the native lane: the upstream's events go to the client as the vendor sent them (with the
// door contract's rewrites, made by the protocol's reader), one batch of SSE text per upstream read, each event
// metered first: the same meter, token rate, drain-on-abort and failover rules as the translated lane's
// generation-stream.ts. Every text leaves through the credential redactor: the vendor's own events are passed on, and
// one that echoes the gateway's key (an error event of any shape) must not carry it to the client. How the stream
// ended comes back for the door to close it: a failure the upstream's own frames did not already tell the client is
// rendered by the door (its error chunk or event). The events from the upstream's finish on (chat's finish, usage and
// [DONE], Messages' message_delta and message_stop, response.completed, Gemini's last chunk) are held back and come
// back with the end: they tell the client the bill, and leave only once it is settled (generation-run.ts).
import type { SseEvent } from '../providers/adapter.js';
import type { UpstreamResponse } from '../providers/http-client.js';
import type { NativeEvent, NativeStreamReader } from '../providers/native/native-protocol.js';
import type { Redact } from '../providers/redact-credentials.js';
import { readSseBatches } from '../providers/sse/parse-sse.js';
import { failedRead, yieldBatches, type BatchProgress } from './upstream-batches.js';
import type { NormalizedUsage, StreamErrorCode } from '../core/generation.js';
import type { GenerationTotals } from '../core/stream-renderer.js';
import { endUpstreamAttempt } from '../observability/upstream-attempt.js';
import type { GenerationMeter } from './generation-meter.js';
import type { DrainState } from './upstream-link.js';
import { observeReading } from './native-lane.js';
import { stopStream } from './generation-stream.js';

export interface NativeStreamOptions {
  upstream: UpstreamResponse;
  reader: NativeStreamReader;
  meter: GenerationMeter;
  /** Aborted when the client went away. */
  signal: { readonly aborted: boolean };
  /** Usage (with cost) of the request as far as it went. */
  totals: () => GenerationTotals;
  /** Counts generated characters against the key's token rate; false ends the stream with `rate_limit`. */
  withinTokenRate: (generatedChars: number) => boolean;
  /** Removes the gateway's credentials from what is sent. */
  redact: Redact;
  /** True once the response has started though no batch was yielded yet (the failover window closed). */
  committed?: () => boolean;
  /** As generation-stream.ts: an upstream that may bill tokens it never shows is read on after its client left. */
  drain?: {
    state: DrainState;
    estimate: () => { usage: NormalizedUsage; why: string };
  };
}

/** How a native stream ended, for the door to close it. */
export interface NativeStreamEnd {
  /** A failure the client has not been told of in the upstream's own frames: the door renders it. */
  failure?: { code: StreamErrorCode; message: string; totals: GenerationTotals };
  /** The upstream's own events from its finish on, held back: sent once the generation is settled. */
  closing?: string[];
}

/**
 * Yields the SSE text to send, batch by batch; returns how the stream ended, or undefined when the client went away.
 * A stream that fails before its first batch throws a GatewayError instead (an ordinary error response, or a failed
 * attempt routing fails over from).
 */
export async function* nativeStream(
  options: NativeStreamOptions,
): AsyncGenerator<string[], NativeStreamEnd | undefined> {
  const { upstream, reader, meter, signal } = options;
  let failure: { code: StreamErrorCode; message: string } | undefined;
  let failureShown = false;
  /** Once the upstream finished: the texts of its finish and everything after it. */
  let closing: string[] | undefined;

  // Meters one event and collects its text; false once the stream must end (a terminal error, the token rate).
  const take = (event: NativeEvent, out: string[]): boolean => {
    const { reading } = event;
    observeReading(meter, reading);
    if (reading.finish !== undefined) closing ??= [];
    const text = signal.aborted ? undefined : event.render(options.totals);
    if (text !== undefined) {
      if (closing === undefined) out.push(options.redact(text));
      else {
        closing.push(options.redact(text));
        // Held back, it still counts as told: a failure after it is the stream's, not an error response.
        progress.yielded = true;
      }
    }
    if (reading.error) {
      failure = reading.error;
      failureShown = text !== undefined;
      if (reading.ends) return false;
    }
    if (reading.generatedChars > 0 && !options.withinTokenRate(reading.generatedChars)) {
      failure = {
        code: 'rate_limit',
        message: 'Rate limit reached during generation: this key used its tokens-per-minute budget',
      };
      failureShown = false;
      return false;
    }
    return true;
  };

  const batches = readSseBatches(upstream.body);
  const progress: BatchProgress = { ended: false, yielded: false };
  try {
    yield* yieldBatches(batches, progress, {
      signal,
      take: (sse, out) => take(reader.read(sse), out),
      end: (out) => {
        take(reader.end(), out);
      },
    });
  } catch (err) {
    failedRead(err, progress, signal, options.committed);
    if (!signal.aborted) {
      failure = {
        code: 'server_error',
        message: `Upstream stream failed: ${(err as Error)?.message ?? 'connection error'}`,
      };
      failureShown = false;
    }
  } finally {
    if (signal.aborted && options.drain) {
      if (!progress.ended && !failure && options.drain.state.draining) await drainUpstream(batches, reader, meter);
      if (options.drain.state.cutOff && meter.usage === undefined) {
        const { usage, why } = options.drain.estimate();
        meter.billEstimate(usage, why);
      }
    }
    upstream.body.destroy();
    endUpstreamAttempt(upstream, {
      aborted: signal.aborted,
      error: progress.broken,
      streamError: failure?.code,
      report: meter,
    });
  }

  if (!stopStream({ failure, progress, signal, committed: options.committed, meter })) return undefined;
  const end: NativeStreamEnd = failure && !failureShown ? { failure: { ...failure, totals: options.totals() } } : {};
  if (closing !== undefined && closing.length > 0) end.closing = closing;
  return end;
}

/**
 * Reads what is left of an upstream stream whose client is gone, metering it without sending anything, until the
 * upstream ends or fails, or the drain is cut (the link aborts the exchange, which ends the read with an error).
 */
async function drainUpstream(
  batches: AsyncGenerator<SseEvent[]>,
  reader: NativeStreamReader,
  meter: GenerationMeter,
): Promise<void> {
  try {
    for (;;) {
      const step = await batches.next();
      if (step.done) break;
      for (const sse of step.value) {
        const { reading } = reader.read(sse);
        observeReading(meter, reading);
        if (reading.error && reading.ends) return;
      }
    }
    observeReading(meter, reader.end().reading);
  } catch {
    // Cut off (or the upstream failed): what was metered stands; a cut without usage is billed the estimate.
  }
}
