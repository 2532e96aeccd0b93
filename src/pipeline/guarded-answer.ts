// The output stage on a whole answer of the translated lane (streams go through guarded-stream.ts): what the
// guardrails found is added to the request's, and a `block` refuses the answer.
import type { GenerationResult } from '../core/generation.js';
import { addFired, type DoorGuardrails } from '../guardrails/door-guardrails.js';
import { guardResult } from '../guardrails/guard-output.js';
import { guardrailBlocked } from './guardrail-block.js';

export function guardAnswer(completion: GenerationResult, guardrails: DoorGuardrails | undefined): void {
  if (guardrails === undefined || guardrails.output.length === 0) return;
  const report = guardResult(completion, { guardrails: guardrails.output, settings: guardrails.settings });
  addFired(guardrails, report.fired);
  if (report.blockedBy !== undefined) throw guardrailBlocked(report.blockedBy, 'answer');
}
