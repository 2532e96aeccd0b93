// Who answers, as the native lane's readers name it to the client, and what cuts credentials out of the vendor's own
// text: the configured ones, and the organization's own key when it served.
import type { GenerationIdentity } from '../core/stream-renderer.js';
import type { RequestFacts } from '../core/request-facts.js';
import type { NativeAnswerContext } from '../providers/native/native-protocol.js';
import type { Redact } from '../providers/redact-credentials.js';
import type { Target } from '../routing/resolve-target.js';
import type { GenerationDoor } from './generation-door.js';

/** What removes credentials from the vendor's own text; `configured` absent: the gateway's pass as they are. */
export function credentialRedact(configured: Redact | undefined, target: Target): Redact {
  const gateway: Redact = configured ?? ((text) => text);
  const own = target.byok?.redact;
  return own === undefined ? gateway : (text) => own(gateway(text));
}

export interface AnswerContextInput {
  identity: GenerationIdentity;
  target: Target;
  facts: RequestFacts;
  door: GenerationDoor;
  redact: Redact;
}

export function nativeAnswerContext({
  identity,
  target,
  facts,
  door,
  redact,
}: AnswerContextInput): NativeAnswerContext {
  const { entry, model, provider } = target;
  const ctx: NativeAnswerContext = {
    generationId: identity.id,
    model: entry.id,
    upstreamModel: model.upstreamModel,
    provider,
    redact,
  };
  if (facts.toolBilling) ctx.toolBilling = facts.toolBilling;
  if (door.keeping) ctx.keeping = door.keeping;
  return ctx;
}
