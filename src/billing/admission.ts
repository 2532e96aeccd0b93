// Step 4 (admit) of a request, and the release of what it held. Credits: reserve an upper bound before calling
// upstream; settlement (settlement.ts) takes the real cost after; release on failure. Free models: nothing reserved.
// Pass (subscription) models: the same upper bound, valued at the reference rates, is reserved against the quota
// windows (src/pass/). No credits are touched for them.
import type { Db } from '../db/database.js';
import type { CatalogEntry } from '../catalog/types.js';
import type { AccessMode } from '../core/access-mode.js';
import type { Principal } from '../auth/principal.js';
import { GatewayError } from '../core/gateway-error.js';
import { releaseCredits, reserveCredits } from '../repositories/credits.js';
import { maxCostNanos, priceFactor, type ExtraSpend } from './pricing.js';
import { PRICE_OPTIONS, type ServedOptions } from '../core/served-options.js';
import { chargedTools } from './tool-fees.js';
import { hasToolUses, type ToolUses } from '../core/tool-uses.js';
import { nanosToUsd } from '../core/money.js';
import type { PassQuotaConfig } from '../pass/plan.js';
import { admitPass } from '../pass/admit-pass.js';
import type { CreditLease, CreditLeases, LeaseReservation } from './credit-leases.js';
import { releasePassUsage } from '../repositories/pass-usage.js';
import { directBudgets, type BudgetHolds } from './budget-admission.js';
import type { BudgetPoolHold } from './budget-leases.js';
import { shrinkBudgetLease } from '../repositories/budget-leases.js';
import { hasKeyLimit, reserveKeyBudget } from './key-budget.js';

/** Output cap assumed for the reservation when neither the request nor the catalog names one. */
const DEFAULT_MAX_OUTPUT_TOKENS = 16_384;

export interface Admission {
  mode: AccessMode;
  userId: string;
  /** Credits: the reserved upper bound. Pass: the upper bound held against the quota windows. */
  reservedNanos: bigint;
  /** Pass only: the reservation row in pass_usage that settlement turns into the real reference cost. */
  passUsageId?: bigint;
  /** Credits admitted against this process's lease (the hold lives in memory, the lease in the database). */
  lease?: CreditLease;
  /** Credits through a key with a USD limit: what the request holds of the key's budget (key-budget.ts). */
  keyHold?: BudgetPoolHold;
  /** What the request holds of its organization's, member's and session's budgets, and its session. */
  budgets?: BudgetHolds;
}

export interface AdmissionDeps {
  db: Db;
  /** Admits in memory against per-process credit leases; without it each request reserves in the database. */
  leases?: CreditLeases;
  now: () => Date;
  config: { passQuota: PassQuotaConfig };
}

export function reservationOutputTokens(
  entry: CatalogEntry,
  requested: number | undefined,
  promptTokens: number,
): number {
  const cap = requested ?? entry.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS;
  return Math.max(1, Math.min(cap, Math.max(1, entry.contextLength - promptTokens)));
}

/** What admission bounds a request's cost by: its prompt estimate, the output cap it asked for, and what it may spend beyond tokens. */
export interface ReservationRequest {
  estimatedPromptTokens: number;
  requestedMaxTokens?: number;
  /** Web searches, other hosted tools' uses and price options (routing/*-reservation.ts, served-options.ts). */
  spend?: ExtraSpend;
}

export async function admitCredits(
  deps: Pick<AdmissionDeps, 'db' | 'leases'> & { now?: () => Date },
  principal: Principal,
  entry: CatalogEntry,
  request: ReservationRequest,
): Promise<Admission> {
  if (entry.accessMode === 'free') return { mode: 'free', userId: principal.organizationId, reservedNanos: 0n };
  const { estimatedPromptTokens, spend = {} } = request;
  const outputTokens = reservationOutputTokens(entry, request.requestedMaxTokens, estimatedPromptTokens);
  const amountNanos = maxCostNanos(entry, estimatedPromptTokens, outputTokens, spend);
  return reserveCreditsFor(deps, principal, {
    amountNanos,
    // What the 402 says is worked out only when credits do not cover the bound.
    refusal: () => ({
      ...spendAdvice(entry, spend, outputTokens),
      output: {
        tokens: outputTokens,
        requested: request.requestedMaxTokens !== undefined,
        costOf: (tokens) => maxCostNanos(entry, estimatedPromptTokens, tokens, spend),
      },
    }),
  });
}

/** How a generation's 402 advises the client, and what it says the bound assumed beyond tokens. */
function spendAdvice(
  entry: CatalogEntry,
  spend: ExtraSpend,
  outputTokens: number,
): Pick<CreditRefusal, 'hint' | 'metadata'> {
  const maxWebSearches = spend.webSearches ?? 0;
  const searches = maxWebSearches > 0 && entryChargesSearches(entry);
  const tools = chargedToolUses(entry, spend.toolUses);
  const options = pricedOptions(entry, spend.options);
  const hint = tools
    ? 'Add credits, lower max_tokens or offer fewer hosted tools.'
    : searches
      ? "Add credits, lower max_tokens or cap the web search tool's uses."
      : options
        ? `Add credits, lower max_tokens or leave out ${Object.keys(options).join(' and ')}.`
        : 'Add credits or lower max_tokens.';
  return {
    hint,
    metadata: {
      max_output_tokens_assumed: outputTokens,
      ...(searches ? { web_searches_assumed: maxWebSearches } : {}),
      ...(tools ? { tool_uses_assumed: tools } : {}),
      ...(options ? { price_options_assumed: options } : {}),
    },
  };
}

/** Of the options the request asks for, those the model prices apart, or undefined when none. */
function pricedOptions(entry: CatalogEntry, options: ServedOptions | undefined): ServedOptions | undefined {
  if (!options) return undefined;
  const out: ServedOptions = {};
  for (const option of PRICE_OPTIONS) {
    const value = options[option];
    // A factor with a denominator is one the catalog prices (priceFactor: 1 for an unpriced value).
    if (value !== undefined && priceFactor(entry.pricing, { [option]: value })[1] !== 1n) out[option] = value;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/**
 * The most output tokens whose upper bound `costOf` fits in `availableNanos`, up to `tokens` (0 when not even the
 * prompt fits). The bound grows with the tokens, so a binary search finds it in ~20 evaluations.
 */
export function affordableOutputTokens(
  costOf: (tokens: number) => bigint,
  tokens: number,
  availableNanos: bigint,
): number {
  if (costOf(0) > availableNanos) return 0;
  let low = 0;
  let high = tokens;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (costOf(mid) <= availableNanos) low = mid;
    else high = mid - 1;
  }
  return low;
}

/** Of the tool uses reserved for, those the model charges a fee for (in some tier), or undefined when none. */
function chargedToolUses(entry: CatalogEntry, uses: ToolUses | undefined): ToolUses | undefined {
  if (!hasToolUses(uses)) return undefined;
  const charged = chargedTools([entry.pricing.base, ...entry.pricing.tiers].map((set) => set.toolFees));
  const out: ToolUses = {};
  for (const tool of charged) if ((uses[tool] ?? 0) > 0) out[tool] = uses[tool];
  return hasToolUses(out) ? out : undefined;
}

/** The model charges a fee per web search (in some tier). */
function entryChargesSearches(entry: CatalogEntry): boolean {
  return entry.pricing.base.webSearch > 0n || entry.pricing.tiers.some((tier) => tier.webSearch > 0n);
}

/**
 * Step 4 for a request whose upper bound is an amount known before the call (embeddings: input tokens only; a
 * response-cache hit at the operator's price): credits, quota, or nothing for free models. The key's allow-list is
 * admission's first rule (pipeline/admission/admission-rules.ts).
 */
export async function admitAmount(
  deps: AdmissionDeps,
  principal: Principal,
  entry: CatalogEntry,
  amountNanos: bigint,
): Promise<Admission> {
  if (entry.accessMode === 'free') return { mode: 'free', userId: principal.organizationId, reservedNanos: 0n };
  if (entry.accessMode === 'pass') {
    const reservation = await admitPass(
      { db: deps.db, now: deps.now, passQuota: deps.config.passQuota },
      { userId: principal.organizationId, modelId: entry.id, amountNanos },
    );
    return {
      mode: 'pass',
      userId: principal.organizationId,
      reservedNanos: amountNanos,
      passUsageId: reservation.usageId,
    };
  }
  return reserveCreditsFor(deps, principal, { amountNanos, refusal: () => ({ hint: 'Add credits.', metadata: {} }) });
}

/** What a credit hold is for, and what its 402 says. */
interface CreditHold {
  amountNanos: bigint;
  refusal: () => CreditRefusal;
}

/** What a 402 says beyond the amounts. */
interface CreditRefusal {
  /** Ends the 402's message. */
  hint: string;
  metadata: Record<string, unknown>;
  /**
   * A generation's output: the tokens the bound assumed, whether the client asked for them (max_tokens), and the
   * bound for any other count, so the 402 can say how many output tokens the balance affords (as OpenRouter does).
   */
  output?: { tokens: number; requested: boolean; costOf: (tokens: number) => bigint };
}

/** Holds the amount against the key's USD limit and the account's credits, or answers 402. */
async function reserveCreditsFor(
  deps: Pick<AdmissionDeps, 'db' | 'leases'> & { now?: () => Date },
  principal: Principal,
  hold: CreditHold,
): Promise<Admission> {
  const { amountNanos } = hold;
  // Nothing can be charged (a request on the organization's own provider key at a BYOK fee of 0): nothing to hold,
  // and a balance at or below zero does not stop it; it is still settled, metered and counted.
  if (amountNanos <= 0n) return { mode: 'credits', userId: principal.organizationId, reservedNanos: 0n };
  // The key's limit first (a key without one costs nothing here, not even a turn of the event loop), admitted like
  // the credits: in memory against this process's lease of the key's budget.
  const budgets = deps.leases?.budgets ?? directBudgets(deps.db);
  const keyHold = hasKeyLimit(principal)
    ? await reserveKeyBudget(budgets, { principal, amountNanos, now: deps.now?.() ?? new Date() })
    : undefined;
  let reserved: LeaseReservation;
  try {
    reserved = deps.leases
      ? await deps.leases.reserve(principal.organizationId, amountNanos)
      : await reserveCredits(deps.db, { userId: principal.organizationId, amountNanos });
  } catch (err) {
    if (keyHold) await budgets.release(keyHold);
    throw err;
  }
  if (!reserved.ok) {
    if (keyHold) await budgets.release(keyHold);
    throw insufficientCredits(amountNanos, hold.refusal(), reserved.availableNanos);
  }
  const lease = 'lease' in reserved ? (reserved.lease as CreditLease) : undefined;
  return { mode: 'credits', userId: principal.organizationId, reservedNanos: amountNanos, lease, keyHold };
}

function insufficientCredits(amountNanos: bigint, hold: CreditRefusal, availableNanos: bigint): GatewayError {
  let tokens = '';
  const metadata: Record<string, unknown> = {};
  if (hold.output) {
    const affordable = affordableOutputTokens(hold.output.costOf, hold.output.tokens, availableNanos);
    const asked = hold.output.requested
      ? `You requested up to ${hold.output.tokens} tokens`
      : `Without max_tokens the request may use up to ${hold.output.tokens} tokens (what the model may write)`;
    tokens = ` ${asked}, but can only afford ${affordable}.`;
    metadata.max_output_tokens_affordable = affordable;
  }
  return new GatewayError(
    402,
    `Insufficient credits: this request may cost up to ${nanosToUsd(amountNanos)} USD and ${nanosToUsd(availableNanos)} USD is available.${tokens} ${hold.hint}`,
    {
      available: nanosToUsd(availableNanos),
      required: nanosToUsd(amountNanos),
      currency: 'USD',
      ...hold.metadata,
      ...metadata,
    },
  );
}

/** Step 4 for every access mode: pass/ models reserve subscription quota, all others go through admitCredits. */
export async function admitRequest(
  deps: AdmissionDeps,
  principal: Principal,
  entry: CatalogEntry,
  request: ReservationRequest,
): Promise<Admission> {
  if (entry.accessMode !== 'pass') return admitCredits(deps, principal, entry, request);
  const outputTokens = reservationOutputTokens(entry, request.requestedMaxTokens, request.estimatedPromptTokens);
  const amountNanos = maxCostNanos(entry, request.estimatedPromptTokens, outputTokens, request.spend);
  const reservation = await admitPass(
    { db: deps.db, now: deps.now, passQuota: deps.config.passQuota },
    { userId: principal.organizationId, modelId: entry.id, amountNanos },
  );
  return {
    mode: 'pass',
    userId: principal.organizationId,
    reservedNanos: amountNanos,
    passUsageId: reservation.usageId,
  };
}

/**
 * Settlement, in memory and exactly once per request (when it is queued): a leased hold goes back to its lease less
 * the cost, so the next request can use the rest before the database write.
 */
export function returnLeasedHold(admission: Admission, costNanos: bigint): void {
  admission.lease?.returnHold(admission.reservedNanos, costNanos);
  admission.keyHold?.lease?.returnHold(admission.keyHold.heldNanos, costNanos);
  const budgets = admission.budgets;
  if (budgets === undefined) return;
  for (const hold of budgets.holds) hold.lease?.returnHold(hold.heldNanos, costNanos);
  if (budgets.session) budgets.session.spentNanos += costNanos;
}

/** Gives back a reservation when the request ends before anything was generated or recorded. */
export async function releaseAdmission(db: Db, admission: Admission): Promise<void> {
  const { keyHold } = admission;
  for (const hold of keyHold ? [keyHold, ...(admission.budgets?.holds ?? [])] : (admission.budgets?.holds ?? [])) {
    if (hold.lease) hold.lease.returnHold(hold.heldNanos, 0n);
    else await shrinkBudgetLease(db, { ...hold, amountNanos: hold.heldNanos });
  }
  if (admission.lease) admission.lease.returnHold(admission.reservedNanos, 0n);
  else if (admission.mode === 'credits' && admission.reservedNanos > 0n) {
    await releaseCredits(db, { userId: admission.userId, amountNanos: admission.reservedNanos });
  } else if (admission.mode === 'pass' && admission.passUsageId !== undefined) {
    await releasePassUsage(db, admission.passUsageId);
  }
}
