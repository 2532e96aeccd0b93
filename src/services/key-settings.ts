// A key's settings as the API and the CLI send them (USD numbers, RFC 3339 text) → validated internal values.
// One parser for both, so the rules (limit >= 0, expiry in the future, model patterns) are the same everywhere.
import type { ApiKeyKind, KeyLimitReset } from '../db/tables/api-keys.js';
import { GatewayError } from '../core/gateway-error.js';
import { usdToNanos } from '../core/money.js';
import type { Guardrail } from '../core/guardrail.js';
import { NO_GUARDRAIL_SETTINGS, type GuardrailSettings } from '../guardrails/guardrail-settings.js';
import { parseGuardrails, type WireGuardrail } from '../guardrails/parse-guardrails.js';

/** A field left out stays as it is; `null` clears it. */
export interface KeySettings {
  name?: string;
  limitNanos?: bigint | null;
  limitReset?: KeyLimitReset | null;
  expiresAt?: Date | null;
  allowedModels?: string[] | null;
  disabled?: boolean;
  /** The key's own guardrails; an empty list is stored as none. */
  guardrails?: Guardrail[];
}

export interface WireKeySettings {
  /** Only when creating: a key's kind is fixed for its life. */
  kind?: string;
  name?: string;
  limit?: number | string | null;
  limit_reset?: string | null;
  expires_at?: string | null;
  allowed_models?: string[] | null;
  disabled?: boolean;
  guardrails?: WireGuardrail[] | null;
}

const RESETS: readonly string[] = ['daily', 'weekly', 'monthly'];
/** `provider/model-name` or `provider/*`. */
const MODEL_PATTERN = /^[^\s/*]+\/(\*|[^\s*]+)$/;
const MAX_LIMIT_NANOS = 1_000_000_000n * 1_000_000_000n; // 1e9 USD: far above any real budget, far below int8

function invalid(field: string, message: string): GatewayError {
  return new GatewayError(400, `Invalid request: ${field} ${message}`, { field });
}

export function parseKeySettings(
  wire: WireKeySettings,
  now: Date,
  /** The operator's guardrail patterns, which a key's `regex` guardrails name. */
  guardrailSettings: GuardrailSettings = NO_GUARDRAIL_SETTINGS,
): KeySettings {
  const settings: KeySettings = {};
  if (wire.name !== undefined) {
    const name = wire.name.trim();
    if (name === '' || name.includes('\u0000'))
      throw invalid('name', 'must be a non-empty name without NUL characters');
    settings.name = name;
  }
  if (wire.limit !== undefined) {
    if (wire.limit === null) settings.limitNanos = null;
    else {
      let nanos: bigint;
      try {
        nanos = usdToNanos(wire.limit);
      } catch {
        throw invalid('limit', 'must be a USD amount');
      }
      if (nanos < 0n || nanos > MAX_LIMIT_NANOS) throw invalid('limit', 'must be between 0 and 1000000000 USD');
      settings.limitNanos = nanos;
    }
  }
  if (wire.limit_reset !== undefined) {
    if (wire.limit_reset !== null && !RESETS.includes(wire.limit_reset))
      throw invalid('limit_reset', 'must be daily, weekly, monthly or null');
    settings.limitReset = wire.limit_reset as KeyLimitReset | null;
  }
  if (wire.expires_at !== undefined) {
    if (wire.expires_at === null) settings.expiresAt = null;
    else {
      const at = new Date(wire.expires_at);
      if (Number.isNaN(at.getTime())) throw invalid('expires_at', 'must be an RFC 3339 date-time');
      if (at.getTime() <= now.getTime()) throw invalid('expires_at', 'must be in the future');
      settings.expiresAt = at;
    }
  }
  if (wire.allowed_models !== undefined) {
    if (wire.allowed_models === null) settings.allowedModels = null;
    else {
      const bad = wire.allowed_models.find((m) => !MODEL_PATTERN.test(m));
      if (bad !== undefined)
        throw invalid('allowed_models', `entries must be "<provider>/<model>" or "<provider>/*", got "${bad}"`);
      settings.allowedModels = [...new Set(wire.allowed_models)];
    }
  }
  if (wire.disabled !== undefined) settings.disabled = wire.disabled;
  if (wire.guardrails !== undefined)
    settings.guardrails = parseGuardrails(wire.guardrails ?? [], { field: 'guardrails', settings: guardrailSettings });
  return settings;
}

/** The kind a new key is created as: `inference` unless the request asks for `management`. */
export function parseKeyKind(wire: string | undefined): ApiKeyKind {
  if (wire === undefined || wire === 'inference') return 'inference';
  if (wire === 'management') return 'management';
  throw invalid('kind', 'must be inference or management');
}

/**
 * A management key calls no model, so it spends nothing: a limit, reset period or allow-list on one would look like
 * a protection that protects nothing. Refused instead (migration 0010's check says the same to the database).
 */
export function checkSettingsFitKind(kind: ApiKeyKind, settings: KeySettings): void {
  if (kind === 'inference') return;
  const field =
    settings.limitNanos != null
      ? 'limit'
      : settings.limitReset != null
        ? 'limit_reset'
        : settings.allowedModels != null
          ? 'allowed_models'
          : settings.guardrails !== undefined && settings.guardrails.length > 0
            ? 'guardrails'
            : undefined;
  if (field !== undefined) throw invalid(field, 'does not apply to a management key, which calls no model');
}
