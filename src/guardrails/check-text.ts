// Runs guardrails over one string: each finds its detector's spans; `redact` replaces them with the detector's
// placeholder (`[EMAIL]`), `block` and `flag` only report. Reports never carry the matched text, only names.
import type { Guardrail } from '../core/guardrail.js';
import type { GuardrailSettings } from './guardrail-settings.js';
import {
  findCreditCards,
  findEmails,
  findIbans,
  findPattern,
  findPhones,
  findSecrets,
  type TextMatch,
} from './text-matches.js';

/** What the guardrails found in the strings checked so far: names only. */
export class GuardrailReport {
  /** Names of the guardrails that fired, in the order they first did. */
  readonly fired: string[] = [];
  /** The first blocking guardrail that fired. */
  blockedBy?: string;

  add(guardrail: Guardrail): void {
    if (!this.fired.includes(guardrail.name)) this.fired.push(guardrail.name);
    if (guardrail.action === 'block' && this.blockedBy === undefined) this.blockedBy = guardrail.name;
  }
}

export function placeholderOf(guardrail: Guardrail): string {
  if (guardrail.detector === 'regex') return `[${(guardrail.pattern ?? guardrail.name).toUpperCase()}]`;
  return `[${guardrail.detector.toUpperCase()}]`;
}

function matchesOf(guardrail: Guardrail, text: string, settings: GuardrailSettings): TextMatch[] {
  switch (guardrail.detector) {
    case 'email':
      return findEmails(text);
    case 'phone':
      return findPhones(text, settings.phoneRegion);
    case 'credit_card':
      return findCreditCards(text);
    case 'iban':
      return findIbans(text);
    case 'secret':
      return findSecrets(text);
    case 'regex': {
      const pattern = guardrail.pattern === undefined ? undefined : settings.patterns.get(guardrail.pattern);
      // A pattern the operator has since removed finds nothing (saving one that is unknown is refused).
      return pattern === undefined ? [] : findPattern(text, pattern);
    }
  }
}

/** Every span any of `guardrails` matches in `text`, unsorted. */
export function spansOf(guardrails: readonly Guardrail[], text: string, settings: GuardrailSettings): TextMatch[] {
  return guardrails.flatMap((guardrail) => matchesOf(guardrail, text, settings));
}

/** `text` with every `redact` guardrail's spans replaced; every guardrail that found something is in `report`. */
export function checkText(
  guardrails: readonly Guardrail[],
  text: string,
  context: { settings: GuardrailSettings; report: GuardrailReport },
): string {
  let out = text;
  for (const guardrail of guardrails) {
    const matches = matchesOf(guardrail, out, context.settings);
    if (matches.length === 0) continue;
    context.report.add(guardrail);
    if (guardrail.action === 'redact') out = replaceSpans(out, matches, placeholderOf(guardrail));
  }
  return out;
}

function replaceSpans(text: string, matches: readonly TextMatch[], placeholder: string): string {
  const sorted = [...matches].sort((a, b) => a.start - b.start);
  let out = '';
  let at = 0;
  for (const match of sorted) {
    if (match.start < at) continue;
    out += text.slice(at, match.start) + placeholder;
    at = match.end;
  }
  return out + text.slice(at);
}
