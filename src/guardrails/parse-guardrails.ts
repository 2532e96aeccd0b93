// A guardrail list as the API, the CLI and the account page send it → validated guardrails. One parser for the
// organization's list and a key's, so the rules (names unique, a known detector, a `regex` naming an operator
// pattern) are the same everywhere.
import { GatewayError } from '../core/gateway-error.js';
import {
  GUARDRAIL_ACTIONS,
  GUARDRAIL_DETECTORS,
  GUARDRAIL_STAGES,
  type Guardrail,
  type GuardrailAction,
  type GuardrailDetector,
  type GuardrailStage,
} from '../core/guardrail.js';
import type { GuardrailSettings } from './guardrail-settings.js';

/** Principals carry every guardrail of their organization and key: a bound keeps them small and requests fast. */
export const MAX_GUARDRAILS = 20;
const NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

export interface WireGuardrail {
  name: string;
  stage: string;
  action: string;
  detector: string;
  pattern?: string;
}

function invalid(field: string, message: string, reason: string): GatewayError {
  return new GatewayError(400, `Invalid request: ${message}`, { field, reason });
}

function oneOf<T extends string>(
  values: readonly T[],
  value: string,
  { what, field }: { what: string; field: string },
): T {
  if (!(values as readonly string[]).includes(value))
    throw invalid(
      field,
      `${what} must be one of ${values.join(', ')}, got "${value}"`,
      `invalid_${what.split(' ').pop()}`,
    );
  return value as T;
}

export function parseGuardrails(
  wire: readonly WireGuardrail[],
  context: { field: string; settings: GuardrailSettings },
): Guardrail[] {
  const { field, settings } = context;
  if (wire.length > MAX_GUARDRAILS)
    throw invalid(field, `at most ${MAX_GUARDRAILS} guardrails, got ${wire.length}`, 'too_many_guardrails');
  const names = new Set<string>();
  return wire.map((item) => {
    if (!NAME.test(item.name))
      throw invalid(field, `guardrail name "${item.name}" must be 1 to 64 letters, digits, _ and -`, 'invalid_name');
    if (names.has(item.name)) throw invalid(field, `guardrail "${item.name}" is named twice`, 'duplicate_name');
    names.add(item.name);
    const guardrail: Guardrail = {
      name: item.name,
      stage: oneOf<GuardrailStage>(GUARDRAIL_STAGES, item.stage, { what: 'guardrail stage', field }),
      action: oneOf<GuardrailAction>(GUARDRAIL_ACTIONS, item.action, { what: 'guardrail action', field }),
      detector: oneOf<GuardrailDetector>(GUARDRAIL_DETECTORS, item.detector, { what: 'guardrail detector', field }),
    };
    if (guardrail.detector === 'regex') {
      const pattern = item.pattern;
      if (pattern === undefined)
        throw invalid(
          field,
          `guardrail "${item.name}" needs a pattern: the name of an operator pattern`,
          'unknown_pattern',
        );
      if (!settings.patterns.has(pattern))
        throw invalid(
          field,
          `guardrail "${item.name}" names the pattern "${pattern}", which the operator has not defined`,
          'unknown_pattern',
        );
      guardrail.pattern = pattern;
    } else if (item.pattern !== undefined) {
      throw invalid(field, `guardrail "${item.name}": pattern is for the regex detector only`, 'unexpected_pattern');
    }
    return guardrail;
  });
}
