// What the pipeline runs a generation with, composed once at start (server.ts) and handed to the front doors'
// handlers: planning (catalog, providers, adapters, breaker, endpoint stats), admission (limits, leases, database),
// the upstream call (HTTP client, drains) and settlement (queue, log). Parts are read when a request uses them, so a
// part replaced on the composed object (tests swap the breaker) serves the next request.
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import type { HttpClient } from '../providers/http-client.js';
import type { SettlementQueue } from '../billing/settlement-queue.js';
import type { Redact } from '../providers/redact-credentials.js';
import type { NativeProtocols } from '../providers/native/native-protocol.js';
import type { RoutingDeps } from '../routing/plan-route.js';
import type { AffinityStore } from '../routing/session-affinity.js';
import type { AdmissionParts } from './admission/admission-ask.js';
import type { UpstreamDrains } from './upstream-drains.js';
import type { ProviderKeyCache } from '../routing/provider-key-cache.js';
import type { PresetCache } from '../presets/preset-cache.js';

/** The settings a generation reads. */
export type GenerationSettings = Pick<
  Config,
  | 'keepAliveSeconds'
  | 'drainOnAbortMs'
  | 'route'
  | 'rateLimitRpm'
  | 'rateLimitTpm'
  | 'freeRequestsPerDay'
  | 'passQuota'
  | 'byokFeePpm'
>;

export interface GenerationParts extends RoutingDeps, AdmissionParts {
  config: GenerationSettings;
  http: HttpClient;
  /** Streams read on after their client left (hidden reasoning); a graceful stop cuts them. */
  drains: UpstreamDrains;
  settlements: SettlementQueue;
  logger: Logger;
  /**
   * Removes every configured credential from vendor text: the adapters are wrapped with it (server.ts), and the
   * native lane, which passes the vendor's own error events on, applies it to them. Absent: text passes (tests).
   */
  redact?: Redact;
  /** The native lane's back door per door protocol (the provider bundles'); one absent: translated. Tests wrap them. */
  natives: NativeProtocols;
  /** Organizations' own provider keys, in memory; absent: every request uses the operator's keys. */
  providerKeys?: ProviderKeyCache;
  /** Organizations' presets, in memory; absent: a request naming a preset finds none. */
  presets?: PresetCache;
  /** Which endpoint served each conversation (session affinity); absent: affinity off (MODELGATE_AFFINITY_TTL_SECONDS=0). */
  affinity?: AffinityStore;
}
