// The input stage: the organization's and the key's input guardrails over a door's request, once it is made ready
// (handlers/door-request.ts) and before planning, admission or any upstream call, so no door and no lane skips it.
// Redaction changes the parsed body in place (the translated lane parses it into the GenerationRequest) and, when
// anything changed, the client's bytes (the native lane's), where only the changed strings are written anew.
import type { NativeWire } from '../providers/native/native-protocol.js';
import { checkText, GuardrailReport } from './check-text.js';
import type { Guardrail } from './guardrail.js';
import type { GuardrailSettings } from './guardrail-settings.js';
import { spliceJsonStrings } from './json-string-splice.js';
import { isCheckedString } from './request-strings.js';

/** What the input stage found: the names that fired and the first that blocks. */
export interface InputVerdict {
  fired: readonly string[];
  blockedBy?: string;
}

/** Runs `guardrails` (input stage) over `body`, and over `wire.raw` when a string changed; undefined: none set. */
export function guardRequest(
  guardrails: readonly Guardrail[],
  request: { body: Record<string, unknown>; wire: NativeWire },
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
  const changed = walk(request.body, undefined, check);
  if (changed && report.blockedBy === undefined && request.wire.raw.length > 0) {
    const json = spliceJsonStrings(request.wire.raw.toString('utf8'), (member, value) =>
      isCheckedString(member, value) ? check(value) : undefined,
    );
    request.wire.raw = Buffer.from(json);
  }
  return { fired: report.fired, blockedBy: report.blockedBy };
}

/** Checks every string under `node` in place; true when one changed. */
function walk(node: unknown, member: string | undefined, check: (value: string) => string): boolean {
  let changed = false;
  if (Array.isArray(node)) {
    for (let i = 0; i < node.length; i++) {
      const item = node[i];
      if (typeof item === 'string') {
        if (!isCheckedString(member, item)) continue;
        const out = check(item);
        if (out !== item) {
          node[i] = out;
          changed = true;
        }
      } else if (item !== null && typeof item === 'object') changed = walk(item, member, check) || changed;
    }
    return changed;
  }
  if (node === null || typeof node !== 'object') return false;
  const record = node as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    const value = record[key];
    if (typeof value === 'string') {
      if (!isCheckedString(key, value)) continue;
      const out = check(value);
      if (out !== value) {
        record[key] = out;
        changed = true;
      }
    } else if (value !== null && typeof value === 'object') changed = walk(value, key, check) || changed;
  }
  return changed;
}
