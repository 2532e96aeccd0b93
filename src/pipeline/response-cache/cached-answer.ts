// What the response cache keeps of one answer: the door's own output as the client received it (the JSON body's
// text, or every SSE frame in order, so a replay has the same events with the same boundaries and the same ending),
// with who served it and what it cost. A replay carries the new generation's id wherever the original's appeared
// (every door derives its ids from it: chunk ids, message and response ids, item ids) and, in a `usage` object,
// what the hit itself cost.
import type { AccessMode } from '../../core/access-mode.js';
import type { SseFrame } from '../../core/stream-renderer.js';
import { nanosToUsd } from '../../core/money.js';

export interface CachedAnswer {
  /** The original generation's id, replaced by each hit's own. */
  generationId: string;
  /** Catalog model that served, its provider and upstream name (the hit's record names them). */
  model: string;
  provider: string;
  upstreamModel: string;
  /** Headers the original answer carried that describe the answer (x-modelgate-provider, -model and -warning). */
  headers: Record<string, string>;
  accessMode: AccessMode;
  /** What the original answer was charged, nano-dollars (0 for free and pass/ models). */
  costNanos: bigint;
  finishReason: string | null;
  /** Exactly one of the two. */
  json?: string;
  frames?: SseFrame[];
}

/** The stored form, JSON text (the same in memory and in Redis). */
export function encodeAnswer(answer: CachedAnswer): string {
  return JSON.stringify({ ...answer, v: 1, costNanos: String(answer.costNanos) });
}

/** undefined for text that is not an entry of this version (an older release's, or damaged): a miss. */
export function decodeAnswer(text: string): CachedAnswer | undefined {
  try {
    const raw = JSON.parse(text) as Record<string, unknown>;
    if (
      raw.v !== 1 ||
      typeof raw.generationId !== 'string' ||
      typeof raw.model !== 'string' ||
      typeof raw.costNanos !== 'string'
    )
      return undefined;
    if (typeof raw.json !== 'string' && !Array.isArray(raw.frames)) return undefined;
    const { v: _version, ...answer } = raw;
    return { ...(answer as unknown as CachedAnswer), costNanos: BigInt(raw.costNanos) };
  } catch {
    return undefined;
  }
}

/** How a replay differs from the original: its generation id, and its own cost where `usage` reports one. */
export interface Replay {
  generationId: string;
  costNanos: bigint;
  accessMode: AccessMode;
}

/** The original id, everywhere, becomes the new one. Ids are `gen-<ms>-<base64url>`: no JSON escaping can hide one. */
function swapId(text: string, from: string, to: string): string {
  return text.includes(from) ? text.split(from).join(to) : text;
}

/** Sets `cost` (and `cost_details.charged`) of every `usage` object that reports a cost. */
function rewriteUsageCost(value: unknown, replay: Replay): void {
  if (value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const item of value) rewriteUsageCost(item, replay);
    return;
  }
  const record = value as Record<string, unknown>;
  const usage = record.usage as Record<string, unknown> | undefined;
  if (usage && typeof usage === 'object' && typeof usage.cost === 'number') {
    usage.cost = nanosToUsd(replay.costNanos);
    const details = usage.cost_details as Record<string, unknown> | undefined;
    if (details && typeof details === 'object')
      details.charged = replay.accessMode === 'credits' && replay.costNanos > 0n;
  }
  for (const key of Object.keys(record)) if (key !== 'usage') rewriteUsageCost(record[key], replay);
}

/** One JSON text as replayed: new id; and, when it reports a cost, the hit's (re-serialized only then). */
export function replayJson(text: string, original: string, replay: Replay): string {
  const swapped = swapId(text, original, replay.generationId);
  if (!swapped.includes('"cost"')) return swapped;
  try {
    const value = JSON.parse(swapped) as unknown;
    rewriteUsageCost(value, replay);
    return JSON.stringify(value);
  } catch {
    // Not JSON (chat's closing `[DONE]`): nothing to rewrite.
    return swapped;
  }
}

export function replayFrames(frames: readonly SseFrame[], original: string, replay: Replay): SseFrame[] {
  return frames.map((frame) => ({ ...frame, data: replayJson(frame.data, original, replay) }));
}
