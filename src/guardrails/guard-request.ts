// The input stage: the organization's and the key's input guardrails over a door's request, once it is made ready
// (http/door-request.ts) and before planning, admission or any upstream call, so no door and no lane skips it.
// Redaction gives a new parsed body (the translated lane parses it into the GenerationRequest) and, when anything
// changed, new client bytes (the native lane's), where only the changed strings are written anew.
import { checkText, GuardrailReport } from './check-text.js';
import type { Guardrail } from '../core/guardrail.js';
import type { GuardrailSettings } from './guardrail-settings.js';
import { spliceJsonStrings } from './json-string-splice.js';
import { isCheckedString } from './request-strings.js';

/** What the input stage found: the names that fired and the first that blocks, and the request as it goes on. */
export interface InputVerdict {
  fired: readonly string[];
  blockedBy?: string;
  /** The body with the redactions (the same object when nothing changed). */
  body: Record<string, unknown>;
  /** The client's bytes with the redactions, for the native lane (the same when nothing changed). */
  raw: Buffer;
}

/** Runs `guardrails` (input stage) over `body`, and over the bytes when a string changed; undefined: none set. */
export function guardRequest(
  guardrails: readonly Guardrail[],
  request: { body: Record<string, unknown>; raw: Buffer },
  settings: GuardrailSettings,
): InputVerdict | undefined {
  if (guardrails.length === 0) return undefined;
  const report = new GuardrailReport();
  // Every string checked, with what it became: the bytes' pass reuses it (a duplicated member is checked anew).
  const checked = new Map<string, string>();
  const check = (value: string): string => {
    let out = checked.get(value);
    if (out === undefined) {
      out = checkText(guardrails, value, { settings, report });
      checked.set(value, out);
    }
    return out;
  };
  const body = walk(request.body, undefined, check) as Record<string, unknown>;
  let raw = request.raw;
  if (body !== request.body && report.blockedBy === undefined && raw.length > 0) {
    const json = spliceJsonStrings(raw.toString('utf8'), (member, value) =>
      isCheckedString(member, value) ? check(value) : undefined,
    );
    raw = Buffer.from(json);
  }
  const verdict: InputVerdict = { fired: report.fired, body, raw };
  if (report.blockedBy !== undefined) verdict.blockedBy = report.blockedBy;
  return verdict;
}

/**
 * `node` with every checked string checked: the same value when nothing changed, else a copy of each array and
 * object on the way to a change (the body may hold objects shared with others, a stored conversation's turns).
 */
function walk(node: unknown, member: string | undefined, check: (value: string) => string): unknown {
  if (typeof node === 'string') return isCheckedString(member, node) ? check(node) : node;
  if (node === null || typeof node !== 'object') return node;
  if (Array.isArray(node)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < node.length; i++) {
      const out = walk(node[i], member, check);
      if (out !== node[i]) {
        copy ??= [...node];
        copy[i] = out;
      }
    }
    return copy ?? node;
  }
  const record = node as Record<string, unknown>;
  let copy: Record<string, unknown> | undefined;
  for (const key of Object.keys(record)) {
    const out = walk(record[key], key, check);
    if (out !== record[key]) {
      copy ??= { ...record };
      copy[key] = out;
    }
  }
  return copy ?? node;
}
