// The output stage on a translated stream: its text through the guard's hold-back window (guardrails/guard-output.ts),
// the rest as it comes. A blocking guardrail ends the stream with the door's error event (content_filter) naming it;
// what was generated is still billed, as the provider charges it.
import type { StreamEvent } from '../core/generation.js';
import type { StreamEnd, GenerationTotals } from '../core/stream-renderer.js';
import { addFired, type DoorGuardrails } from '../guardrails/door-guardrails.js';
import { StreamTextGuard } from '../guardrails/guard-output.js';
import type { GenerationMeter } from './generation-meter.js';

export async function* guardedStream(
  stream: AsyncGenerator<StreamEvent[], StreamEnd | undefined>,
  context: { guardrails: DoorGuardrails; meter: GenerationMeter; totals: () => GenerationTotals },
): AsyncGenerator<StreamEvent[], StreamEnd | undefined> {
  const { guardrails, meter } = context;
  const guard = new StreamTextGuard({ guardrails: guardrails.output, settings: guardrails.settings });
  const blocked = (): StreamEnd | undefined => {
    addFired(guardrails, guard.report.fired);
    const name = guard.report.blockedBy;
    if (name === undefined) return undefined;
    const message = `The answer was blocked by the guardrail "${name}"`;
    meter.fail(200, 'guardrail_blocked', message);
    return { type: 'error', code: 'content_filter', message, totals: context.totals() };
  };
  try {
    for (;;) {
      const step = await stream.next();
      if (step.done) {
        if (step.value === undefined) return undefined;
        const rest = guard.flush();
        const end = blocked();
        if (end !== undefined) return end;
        if (rest.length > 0) yield rest;
        return step.value;
      }
      const batch = guard.push(step.value);
      const end = blocked();
      if (end !== undefined) return end;
      // An empty batch still goes: the failover window and the writer count batches, not text.
      yield batch;
    }
  } finally {
    await stream.return(undefined);
  }
}
