// A guardrail as an organization or a key holds it: a detector looking at the request's text (`input`) or the
// answer's (`output`), and what happens when it finds something. Validated once when saved (parse-guardrails.ts);
// read back from the credential's own query, so the hot path never asks the database.

export type GuardrailStage = 'input' | 'output';
export type GuardrailAction = 'redact' | 'block' | 'flag';
export type GuardrailDetector = 'email' | 'phone' | 'credit_card' | 'iban' | 'secret' | 'regex';

export interface Guardrail {
  name: string;
  stage: GuardrailStage;
  action: GuardrailAction;
  detector: GuardrailDetector;
  /** `regex` only: the name of one of the operator's patterns (MODELGATE_GUARDRAIL_PATTERNS). */
  pattern?: string;
}

export const GUARDRAIL_STAGES: readonly GuardrailStage[] = ['input', 'output'];
export const GUARDRAIL_ACTIONS: readonly GuardrailAction[] = ['redact', 'block', 'flag'];
export const GUARDRAIL_DETECTORS: readonly GuardrailDetector[] = [
  'email',
  'phone',
  'credit_card',
  'iban',
  'secret',
  'regex',
];

/** A principal's guardrails: its organization's, then its key's; both apply. */
export interface GuardrailLists {
  organization: readonly Guardrail[];
  key: readonly Guardrail[];
}

/** The guardrails of both lists that run at `stage`, the organization's first. */
export function guardrailsAt(lists: GuardrailLists | undefined, stage: GuardrailStage): Guardrail[] {
  if (lists === undefined) return [];
  return [...lists.organization, ...lists.key].filter((guardrail) => guardrail.stage === stage);
}
