// A request an input guardrail blocks: nothing goes upstream and nothing is admitted (no reservation, no rate or
// budget spent), but the generation is recorded, cost 0, with the guardrails that fired, so the organization sees
// what was refused and why. The refusal is 403 in the door's envelope naming the guardrail, never the matched text.
import type { Principal } from '../auth/principal.js';
import { GatewayError } from '../core/gateway-error.js';
import type { Target } from '../routing/resolve-target.js';
import type { GenerationParts } from './generation-parts.js';
import { GenerationMeter } from './generation-meter.js';
import { generationRecord, type ApiFormat, type TrackingHeaders } from './generation-record.js';

export function guardrailBlocked(name: string, what: 'request' | 'answer' = 'request'): GatewayError {
  return new GatewayError(403, `The ${what} was blocked by the guardrail "${name}"`, {
    reason: 'guardrail_blocked',
    guardrail: name,
  });
}

export interface BlockedRequest {
  principal: Principal;
  target: Target;
  stream: boolean;
  tracking: TrackingHeaders;
  apiFormat: ApiFormat;
  /** Every guardrail that fired (the blocking one among them). */
  fired: readonly string[];
  error: GatewayError;
}

/** Records the blocked request (settled as nothing was held: no ledger row, no spend) and waits for it. */
export async function recordBlocked(parts: Pick<GenerationParts, 'settlements' | 'logger'>, blocked: BlockedRequest) {
  const meter = new GenerationMeter(0);
  meter.fail(blocked.error.status, 'guardrail_blocked', blocked.error.message);
  const nothingHeld = { mode: 'free' as const, userId: blocked.principal.organizationId, reservedNanos: 0n };
  const record = generationRecord({
    meter,
    principal: blocked.principal,
    target: blocked.target,
    admission: nothingHeld,
    streamed: blocked.stream,
    costNanos: 0n,
    tracking: blocked.tracking,
    apiFormat: blocked.apiFormat,
    attempts: null,
    guardrails: blocked.fired,
  });
  record.access_mode = blocked.target.entry.accessMode;
  try {
    await parts.settlements.settle(nothingHeld, record);
  } catch (err) {
    parts.logger.error({ err, generation_id: meter.id }, 'could not record a blocked generation');
  }
  return meter.id;
}
