// The daily allowance of requests to free models, counted per account (every key of an account draws on one
// allowance, so more keys do not mean more free requests) and per key, for a key with a tighter allowance of its own.
// The counts of the current UTC day are loaded from the generation records the first time they are needed (so a
// restart does not reset them) and then kept in this process.

export interface FreeRequestDecision {
  ok: boolean;
  /** Whose allowance this is about: the one that refused, else the account's. */
  scope: 'account' | 'key';
  limit: number;
  used: number;
  /** Seconds until the next UTC midnight. */
  retryAfterSeconds: number;
}

/** Whose request it is, and the allowances that apply (0 = unlimited). */
export interface FreeRequestSubject {
  accountId: string;
  accountLimit: number;
  /** The API key making the request; its count is kept so that a limit set on it later starts from what it used. */
  keyId?: string;
  /** The key's own allowance; 0 or absent: only the account's applies. */
  keyLimit?: number;
}

/** What admission uses: FreeRequestCounter in this process, RedisFreeRequests shared between instances. */
export interface FreeRequestAllowance {
  /** Counts one request to a free model against the allowances of the UTC day of `nowMs`, or refuses it. */
  take(subject: FreeRequestSubject, nowMs: number): Promise<FreeRequestDecision>;
}

/** Requests to free models since a time, from the generation records: an account's, or one key's. */
export interface FreeRequestRecords {
  countForAccount(accountId: string, since: Date): Promise<number>;
  countForKey(keyId: string, since: Date): Promise<number>;
}

const DAY_MS = 86_400_000;

export function utcDayStart(nowMs: number): number {
  const day = new Date(nowMs);
  return Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate());
}

export function secondsToNextUtcDay(nowMs: number): number {
  return Math.ceil((utcDayStart(nowMs) + DAY_MS - nowMs) / 1000);
}

/** Judges one request against both counts (before it); shared with the Redis script's rule. */
export function judgeFreeRequest(
  subject: FreeRequestSubject,
  accountUsed: number,
  keyUsed: number,
  nowMs: number,
): FreeRequestDecision {
  const retryAfterSeconds = secondsToNextUtcDay(nowMs);
  const keyLimit = subject.keyLimit ?? 0;
  if (subject.keyId !== undefined && keyLimit > 0 && keyUsed >= keyLimit) {
    return { ok: false, scope: 'key', limit: keyLimit, used: keyUsed, retryAfterSeconds };
  }
  const ok = subject.accountLimit <= 0 || accountUsed < subject.accountLimit;
  return { ok, scope: 'account', limit: subject.accountLimit, used: accountUsed, retryAfterSeconds };
}

/** One account's counts of one UTC day. */
interface AccountDay {
  dayStartMs: number;
  /** Undefined until read from the records. */
  used?: number;
  keys: Map<string, number>;
  /** The account's requests are judged one after another, each after the previous one counted. */
  tail: Promise<unknown>;
}

export class FreeRequestCounter implements FreeRequestAllowance {
  private readonly accounts = new Map<string, AccountDay>();
  private dayStartMs = 0;

  constructor(private readonly records: FreeRequestRecords) {}

  take(subject: FreeRequestSubject, nowMs: number): Promise<FreeRequestDecision> {
    const dayStartMs = utcDayStart(nowMs);
    // A new day: yesterday's counts are worth nothing (dropping them bounds memory).
    if (dayStartMs > this.dayStartMs) {
      this.accounts.clear();
      this.dayStartMs = dayStartMs;
    }
    let day = this.accounts.get(subject.accountId);
    if (!day || day.dayStartMs !== dayStartMs) {
      day = { dayStartMs, keys: new Map(), tail: Promise.resolve() };
      this.accounts.set(subject.accountId, day);
    }
    const current = day;
    const decision = current.tail.then(() => this.decide(current, subject, nowMs));
    current.tail = decision.catch(() => undefined);
    return decision;
  }

  /** A count that failed to load stays unknown, so the next request reads the records again. */
  private async decide(day: AccountDay, subject: FreeRequestSubject, nowMs: number): Promise<FreeRequestDecision> {
    const since = new Date(day.dayStartMs);
    const { keyId } = subject;
    const [accountUsed, keyUsed] = await Promise.all([
      day.used ?? this.records.countForAccount(subject.accountId, since),
      keyId === undefined ? 0 : (day.keys.get(keyId) ?? this.records.countForKey(keyId, since)),
    ]);
    day.used = accountUsed;
    const decision = judgeFreeRequest(subject, accountUsed, keyUsed, nowMs);
    if (decision.ok) day.used += 1;
    if (keyId !== undefined) day.keys.set(keyId, decision.ok ? keyUsed + 1 : keyUsed);
    return decision;
  }
}
