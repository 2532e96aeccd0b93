// What the operator configures for guardrails: named regular expressions organizations may use (a guardrail names
// one; organizations never send their own pattern, so no tenant can make the gateway run a catastrophic one) and the
// region national phone numbers are read in.
export interface GuardrailSettings {
  /** MODELGATE_GUARDRAIL_PATTERNS: name → pattern (compiled global, Unicode). */
  patterns: ReadonlyMap<string, RegExp>;
  /** MODELGATE_GUARDRAIL_PHONE_REGION: ISO 3166 country whose national numbers count; absent: international only. */
  phoneRegion?: string;
}

export const NO_GUARDRAIL_SETTINGS: GuardrailSettings = { patterns: new Map() };

const PATTERN_NAME = /^[a-z][a-z0-9_]{0,63}$/;

/** Parses MODELGATE_GUARDRAIL_PATTERNS (a JSON object of name to pattern); throws a message saying what is wrong. */
export function parseGuardrailPatterns(text: string | undefined): Map<string, RegExp> {
  const patterns = new Map<string, RegExp>();
  if (text === undefined || text.trim() === '') return patterns;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error('must be a JSON object of name to regular expression');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new Error('must be a JSON object of name to regular expression');
  for (const [name, source] of Object.entries(parsed)) {
    if (!PATTERN_NAME.test(name)) throw new Error(`"${name}" must be lower case letters, digits and _`);
    if (typeof source !== 'string') throw new Error(`"${name}" must be a string`);
    try {
      patterns.set(name, new RegExp(source, 'gu'));
    } catch (err) {
      throw new Error(`"${name}" is not a valid pattern: ${(err as Error).message}`);
    }
  }
  return patterns;
}
