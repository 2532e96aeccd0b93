// A generation's settlement: its generation record, built from the meter once the answer ended (or the client left),
// queued with the admission to settle (credits or quota). It never rejects: it runs from the handler's finally.
import type { GenerationAttempt } from '../db/tables/generations.js';
import { observeThroughput } from './endpoint-speed.js';
import type { GenerationMeter } from './generation-meter.js';
import type { GenerationParts } from './generation-parts.js';
import { generationRecord } from './generation-record.js';
import type { GenerationRunInput } from './generation-run-input.js';
import type { GenerationTokens } from './generation-tokens.js';
import type { UpstreamLink } from './upstream-link.js';

export interface RunSettlement {
  meter: GenerationMeter;
  input: GenerationRunInput;
  /** Every upstream attempt, kept in the record. */
  attempts: GenerationAttempt[];
  tokens: GenerationTokens;
  link: UpstreamLink;
  costNanos(): bigint;
}

export async function writeSettlement(
  parts: Pick<GenerationParts, 'settlements' | 'logger' | 'endpointStats'>,
  run: RunSettlement,
): Promise<void> {
  run.link.finish();
  run.input.client.dispose();
  observeThroughput(run.meter, run.input.target, parts.endpointStats);
  try {
    const record = buildRecord(run);
    run.input.requestTrace?.annotate(record);
    await parts.settlements.settle(run.input.admission, record);
  } catch (err) {
    parts.logger.error({ err, generation_id: run.meter.id }, 'could not queue settlement');
  }
}

function buildRecord({ meter, input, attempts, tokens, costNanos }: RunSettlement) {
  if (input.client.signal.aborted) meter.abort();
  const usage = meter.finalUsage();
  tokens.settleTo(usage.promptTokens + usage.completionTokens);
  return generationRecord({
    meter,
    principal: input.principal,
    target: input.target,
    admission: input.admission,
    streamed: input.stream,
    costNanos: costNanos(),
    tracking: input.tracking,
    apiFormat: input.apiFormat,
    attempts: attempts.length > 0 ? attempts : null,
    guardrails: input.door.guardrails?.fired,
  });
}
