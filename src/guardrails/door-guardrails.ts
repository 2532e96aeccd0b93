// A request's guardrails as the pipeline carries them: what the input stage found, the output stage's guardrails
// and the operator's settings, and the names of every guardrail that fired (the output stage adds to them), which
// the answer's header and the generation record report.
import type { Guardrail } from '../core/guardrail.js';
import type { GuardrailSettings } from './guardrail-settings.js';

export interface DoorGuardrails {
  /** Names of the guardrails that fired, input stage first; the output stage appends. */
  fired: string[];
  /** The input guardrail that blocked the request. */
  blockedBy?: string;
  /** The output stage's guardrails (none: answers pass as they come, on either lane). */
  output: readonly Guardrail[];
  settings: GuardrailSettings;
}

/** The response header naming the guardrails that fired (never what they matched). */
export const GUARDRAILS_HEADER = 'x-modelgate-guardrails';

export function guardrailsHeader(guardrails: DoorGuardrails | undefined): Record<string, string> {
  if (guardrails === undefined || guardrails.fired.length === 0) return {};
  return { [GUARDRAILS_HEADER]: guardrails.fired.join(', ') };
}

/** Adds names that fired, once each. */
export function addFired(guardrails: DoorGuardrails, names: readonly string[]): void {
  for (const name of names) if (!guardrails.fired.includes(name)) guardrails.fired.push(name);
}
