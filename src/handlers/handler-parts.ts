// What the handlers use, composed once at start (server.ts). Each handler takes only its own part of it
// (`Pick<HandlerParts, ...>`), and reads a part when a request uses it, so a part replaced on the composed object
// (tests swap the breaker) serves the next request. The database handle comes with the pipeline's parts: handlers
// hand it to services and never query it.
import type { Config } from '../config.js';
import type { CredentialCache } from '../auth/credential-cache.js';
import type { CreditLeases } from '../billing/credit-leases.js';
import type { NotReady } from '../health/check-readiness.js';
import type { GenerationParts } from '../pipeline/generation-parts.js';
import type { EmbeddingAdapters } from '../providers/embedding-adapter.js';
import type { PromptTokenCounters } from '../providers/provider-bundle.js';
import type { ResponseCache } from '../pipeline/response-cache/response-cache.js';
import type { ResponseState } from '../response-state/continue-response.js';
import type { StoredResponses } from '../services/stored-responses.js';

export interface HandlerParts extends GenerationParts {
  config: Config;
  /** Resolved credentials by hash; a key changed or deleted here is dropped from it at once. */
  credentials: CredentialCache;
  /** Credit leases of this process: the operator's credit removals recall them first. */
  leases: CreditLeases;
  /** Readiness: undefined when ready, else why not (health/check-readiness.ts). */
  readiness: () => Promise<NotReady | undefined>;
  /** The embeddings API of each provider kind that has one (POST /embeddings). */
  embeddingAdapters: EmbeddingAdapters;
  /** The prompt-token counter of each provider kind that has one (count_tokens). */
  tokenCounters: PromptTokenCounters;
  /** The opt-in response cache (X-Modelgate-Cache). */
  responseCache: ResponseCache;
  /** The Responses door's state: stored responses (absent when retention is 0) and the edge memories' fallback. */
  responseState?: ResponseState;
  /** Stored responses for GET, DELETE and purges; absent when retention is 0 (nothing is stored). */
  storedResponses?: StoredResponses;
}

/** A key changed or deleted: the credential cache drops it at once, stamped with the clock. */
export type KeyChangeParts = Pick<HandlerParts, 'config' | 'credentials' | 'db' | 'now'>;

/** A read of what settlement writes (balance, ledger, generations): the settlements in flight are awaited first. */
export type SettledReadParts = Pick<HandlerParts, 'db' | 'settlements'>;

/** A listing of keys with their spend: settled first, windows read on the clock. */
export type KeyListParts = Pick<HandlerParts, 'db' | 'now' | 'settlements'>;

/** A view of a key or a pass with its limits and usage: settled first, the configured defaults filled in. */
export type LimitsViewParts = Pick<HandlerParts, 'config' | 'db' | 'now' | 'settlements'>;

/** A new key or pass: the configured limits and the clock. */
export type GrantParts = Pick<HandlerParts, 'config' | 'db' | 'now'>;

/** The model catalog's own answers. */
export type CatalogParts = Pick<HandlerParts, 'catalog' | 'presets'>;
