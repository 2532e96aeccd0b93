// Step 6 for JSON, on either lane: the upstream's whole answer read, metered, and made ready for the client, as
// internal results the door renders (translated) or as the vendor's own bytes (native).
import type { GenerationResult } from '../core/generation.js';
import type { GenerationTotals } from '../core/stream-renderer.js';
import { endUpstreamAttempt } from '../observability/upstream-attempt.js';
import type { AdapterContext, ProviderAdapter } from '../providers/adapter.js';
import type { UpstreamResponse } from '../providers/http-client.js';
import type { NativeAnswerContext, NativeProtocol } from '../providers/native/native-protocol.js';
import { readUpstreamBytes, readUpstreamJson } from './call-upstream.js';
import type { GenerationMeter } from './generation-meter.js';
import { observeReading } from './native-lane.js';
import { readAnswer, type AnswerAttempt } from './read-answer.js';

/** What reading a whole answer takes of its run. */
export interface WholeAnswerRun {
  attempt: AnswerAttempt;
  meter: GenerationMeter;
  /** The usage and cost so far (read after the answer was metered). */
  totals(): GenerationTotals;
}

/** The translated lane: the whole upstream answer, translated and metered. */
export async function completeTranslated(
  upstream: UpstreamResponse,
  run: WholeAnswerRun & { adapter: ProviderAdapter; adapterCtx: AdapterContext; excludeReasoning: boolean },
): Promise<{ completion: GenerationResult; totals: GenerationTotals }> {
  const { meter } = run;
  const result = await readAnswer(upstream, run.attempt, {
    read: (provider) => readUpstreamJson(upstream, provider),
    take: (body) => run.adapter.parseCompletion(body, run.adapterCtx),
  });
  if (result.upstreamId) meter.observe({ type: 'upstream-id', id: result.upstreamId });
  if (result.usage) meter.observe({ type: 'usage', usage: result.usage });
  meter.observe({ type: 'finish', finishReason: result.finishReason });
  meter.observeOutput(result.output);
  endUpstreamAttempt(upstream, { report: meter });
  const completion = run.excludeReasoning
    ? { ...result, output: result.output.filter((block) => block.type !== 'reasoning') }
    : result;
  return { completion, totals: run.totals() };
}

/** The native lane: the upstream's whole answer, metered, and the bytes to send the client. */
export async function completeNative(
  upstream: UpstreamResponse,
  native: NativeProtocol,
  run: WholeAnswerRun & { ctx: NativeAnswerContext },
): Promise<Buffer> {
  const { ctx } = run;
  const answer = await readAnswer(upstream, run.attempt, {
    read: (provider) => readUpstreamBytes(upstream, provider),
    take: (bytes) => native.readJson(bytes, ctx),
  });
  observeReading(run.meter, answer.reading);
  endUpstreamAttempt(upstream, { report: run.meter });
  // The vendor's own body goes to the client: whatever in it echoes a gateway credential is cut out.
  const body = answer.render(run.totals());
  const text = body.toString('utf8');
  const clean = ctx.redact(text);
  return clean === text ? body : Buffer.from(clean);
}
