// Step 6 for streams, in no wire format: vendor SSE → translator → metered internal events, one batch per upstream
// read, then how the stream ended. A front door's renderer turns the batches into its own frames; the consumer
// writes one batch in one socket write, so nothing waits for a later upstream read.
import type { SseEvent, StreamTranslator } from '../providers/adapter.js';
import type { UpstreamResponse } from '../providers/http-client.js';
import { readSseBatches } from '../providers/sse/parse-sse.js';
import { failedRead, yieldBatches, type BatchProgress } from './upstream-batches.js';
import { generatedChars, type NormalizedUsage, type StreamErrorCode, type StreamEvent } from '../core/generation.js';
import type { GenerationTotals, StreamEnd } from '../core/stream-renderer.js';
import type { GenerationMeter } from './generation-meter.js';
import { GatewayError } from '../core/gateway-error.js';
import { endUpstreamAttempt } from '../observability/upstream-attempt.js';
import type { DrainState } from './upstream-link.js';

export interface GenerationStreamOptions {
  upstream: UpstreamResponse;
  translator: StreamTranslator;
  meter: GenerationMeter;
  /** The client asked for reasoning to be used but not returned: reasoning deltas are metered, not yielded. */
  excludeReasoning: boolean;
  /** Aborted when the client went away. */
  signal: { readonly aborted: boolean };
  /** Usage (with cost) of the request as far as it went; called once, at the end. */
  totals: () => GenerationTotals;
  /** Counts generated characters against the key's token rate; false ends the stream with `rate_limit`. */
  withinTokenRate: (generatedChars: number) => boolean;
  /**
   * True once the response has started though no batch was yielded yet (the failover window closed): a failure is
   * then rendered in the stream, never thrown.
   */
  committed?: () => boolean;
  /**
   * When the stream's upstream may bill tokens it never shows: the client's departure then leaves the upstream to be
   * read on, out of sight, until its usage arrives or the drain is cut (upstream-link.ts).
   */
  drain?: {
    state: DrainState;
    /** What is billed when the drain was cut before the upstream reported usage, and why. */
    estimate: () => { usage: NormalizedUsage; why: string };
  };
}

/** Gateway status for a stream that failed before its first event (nothing reached the client yet). */
const START_FAILURE_STATUS: Record<StreamErrorCode, number> = {
  rate_limit: 429,
  server_error: 502,
  context_length_exceeded: 400,
  content_filter: 400,
};

/** How an upstream stream stopped, as either lane saw it. */
export interface StreamStop {
  failure?: { code: StreamErrorCode; message: string };
  progress: BatchProgress;
  signal: { readonly aborted: boolean };
  committed?: () => boolean;
  meter: GenerationMeter;
}

/**
 * The same on both lanes (this file and native-stream.ts): a failure before anything reached the client (and before
 * the failover window committed the response) is thrown, an ordinary error response or an attempt to fail over from;
 * after it, the failure is recorded and told in the stream. False when the client left (recorded as aborted).
 */
export function stopStream({ failure, progress, signal, committed, meter }: StreamStop): boolean {
  if (failure && !progress.yielded && !signal.aborted && !committed?.()) {
    throw new GatewayError(START_FAILURE_STATUS[failure.code], failure.message, {
      reason: 'upstream_stream_failed',
      stream_code: failure.code,
    });
  }
  if (failure) meter.fail(200, failure.code, failure.message);
  if (signal.aborted) meter.abort();
  return !signal.aborted;
}

/**
 * Yields the delta events to render, batch by batch; returns the end of the stream, or undefined when the client
 * went away (the consumer may also stop early with `return()`: the upstream is released either way).
 * A stream that fails before its first batch throws a GatewayError instead: no byte has reached the client, so the
 * failure is an ordinary error response (or, with routing, a failed attempt to fail over from).
 */
export async function* generationStream(
  options: GenerationStreamOptions,
): AsyncGenerator<StreamEvent[], StreamEnd | undefined> {
  const { upstream, translator, meter, signal } = options;
  let failure: { code: StreamErrorCode; message: string } | undefined;

  // Meters every event and collects the ones to render; false once the stream must end (error, token rate).
  const take = (events: StreamEvent[], out: StreamEvent[]): boolean => {
    for (const event of events) {
      meter.observe(event);
      if (event.type === 'error') {
        failure = { code: event.code, message: event.message };
        return false;
      }
      if (isOutput(event)) {
        if (!(options.excludeReasoning && isReasoning(event))) out.push(event);
        const chars = generatedChars(event);
        if (chars > 0 && !options.withinTokenRate(chars)) {
          failure = {
            code: 'rate_limit',
            message: 'Rate limit reached during generation: this key used its tokens-per-minute budget',
          };
          return false;
        }
      }
    }
    return true;
  };

  const batches = readSseBatches(upstream.body);
  const progress: BatchProgress = { ended: false, yielded: false };
  try {
    yield* yieldBatches(batches, progress, {
      signal,
      take: (sse, out) => take(translator.push(sse), out),
      end: (out) => {
        take(translator.end(), out);
      },
    });
  } catch (err) {
    failedRead(err, progress, signal, options.committed);
    if (!signal.aborted) {
      failure = {
        code: 'server_error',
        message: `Upstream stream failed: ${(err as Error)?.message ?? 'connection error'}`,
      };
      // Usage the upstream reported before it failed (translators hold it until the end) is what it bills.
      flushUsage(translator, meter);
    }
  } finally {
    // Also when the consumer stopped early (the client is gone; settlement records the abort).
    if (signal.aborted && options.drain) {
      if (!progress.ended && !failure && options.drain.state.draining)
        await drainUpstream(batches, translator, meter, options.drain.state);
      if (options.drain.state.cutOff && meter.usage === undefined) {
        // A generation that finished before the cut has its final usage held by the translator (an upstream that
        // never closed its stream): the provider's figure, not the estimate. Mid-generation reports (Gemini sends
        // running totals) are not final, so an unfinished one gets the estimate.
        if (meter.finishReason !== undefined) flushUsage(translator, meter);
        if (meter.usage === undefined) {
          const { usage, why } = options.drain.estimate();
          meter.billEstimate(usage, why);
        }
      }
    }
    upstream.body.destroy();
    // The upstream exchange is over, however it ended: its span (tracing on) ends here, with how and what it reported.
    endUpstreamAttempt(upstream, {
      aborted: signal.aborted,
      error: progress.broken,
      streamError: failure?.code,
      report: meter,
    });
  }

  if (!stopStream({ failure, progress, signal, committed: options.committed, meter })) return undefined;
  const totals = options.totals();
  return failure
    ? { type: 'error', code: failure.code, message: failure.message, totals }
    : {
        type: 'finish',
        finishReason: meter.finishReason ?? 'stop',
        ...(meter.stopSequence !== undefined ? { stopSequence: meter.stopSequence } : {}),
        totals,
      };
}

/** Events a front door renders: the reply's content (usage, finish and errors are the stream's end). */
function isOutput(event: StreamEvent): boolean {
  return event.type !== 'usage' && event.type !== 'finish' && event.type !== 'upstream-id';
}

function isReasoning(event: StreamEvent): boolean {
  return event.type === 'reasoning-delta' || event.type === 'reasoning-state';
}

/** Usage the translator holds back until the end, observed (a stream that broke still bills what it reported). */
function flushUsage(translator: StreamTranslator, meter: GenerationMeter): void {
  for (const event of translator.end()) if (event.type === 'usage') meter.observe(event);
}

/**
 * Reads what is left of an upstream stream whose client is gone, metering it without rendering it, until the
 * upstream ends (its usage is then metered) or fails, or the drain is cut (the link aborts the exchange, which
 * ends the read with an error).
 */
async function drainUpstream(
  batches: AsyncGenerator<SseEvent[]>,
  translator: StreamTranslator,
  meter: GenerationMeter,
  state: DrainState,
): Promise<void> {
  try {
    for (;;) {
      const step = await batches.next();
      if (step.done) break;
      for (const sse of step.value) {
        for (const event of translator.push(sse)) {
          // An error ends the upstream's answer; the usage it reported before comes first (translators order it so).
          if (event.type === 'error') return;
          meter.observe(event);
        }
      }
    }
    for (const event of translator.end()) if (event.type !== 'error') meter.observe(event);
  } catch {
    if (!state.cutOff) flushUsage(translator, meter);
  }
}
