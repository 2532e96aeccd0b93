// A key's rate-limit state as admission read it, carried as data to the edge: each door renders it as the headers its
// clients read (formats/shared/rate-limit-headers.ts), so nothing below the HTTP layer knows a header name.

/** One per-minute bucket (requests or tokens), as read when the request was admitted or refused. */
export interface RateState {
  /** Per minute. */
  limit: number;
  /** Left, whole (0 once spent). */
  remaining: number;
  /** Unix ms when the bucket is full again. */
  resetAtMs: number;
  /** ms from the reading until then: what a door that says "in how long" sends, whatever the edge's clock says. */
  resetInMs: number;
}

/** The key's tightest request budget and tightest token budget; each absent when no such limit applies. */
export interface RateReport {
  requests?: RateState;
  tokens?: RateState;
  /** A refusal by these limits: ms until the request would be admitted. */
  retryAfterMs?: number;
}
