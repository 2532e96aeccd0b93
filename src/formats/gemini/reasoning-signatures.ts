// Reasoning records ⇄ Gemini `thoughtSignature`s. Gemini's own signatures travel byte for byte on the part they came
// on (a thought, the answer text, a function call; src/providers/gemini/thought-signatures.ts has the record shapes).
// Reasoning of every other provider (Claude thinking with its signature, OpenAI encrypted reasoning) has no place in
// the Gemini format but a part's `thoughtSignature`, so its records ride there in the gateway's own encoding and come
// back when the client replays the part. Gemini CLI replays the signatures of function-call parts only (it drops
// thought parts), so a reply's foreign records go on its first function call when it has one.
import type { ReasoningBlock } from '../../core/content-blocks.js';
import type { ReasoningState } from '../../core/generation.js';
import { decodeReasoning, encodeReasoning } from '../shared/reasoning-details.js';

/** Gemini's reasoning format (src/providers/gemini/thought-signatures.ts). */
export const GEMINI_FORMAT = 'google-gemini-v1';
/** Prefix of gateway-encoded reasoning; Google's signatures are base64 and never start with it. */
const ENCODED_PREFIX = 'mg.gs1.';

export function isGeminiRecord(record: ReasoningState): boolean {
  return record.format === GEMINI_FORMAT;
}

export function encodeForeignReasoning(records: readonly ReasoningState[]): string {
  return encodeReasoning(ENCODED_PREFIX, records);
}

/**
 * The records a part's `thoughtSignature` stands for: the gateway's encoding decoded, or Google's own signature as the
 * record the Gemini adapter replays on that kind of part (`thought` text, answer text, or the call `callId`).
 */
export function recordsOfSignature(
  signature: string,
  on: { thought?: string; callId?: string },
  index: number,
): ReasoningBlock[] {
  const decoded = decodeReasoning(ENCODED_PREFIX, signature);
  if (decoded) return decoded;
  if (on.thought !== undefined)
    return [{ type: 'reasoning', text: on.thought, signature, format: GEMINI_FORMAT, index }];
  const record: ReasoningBlock = { type: 'reasoning', data: signature, format: GEMINI_FORMAT, index };
  if (on.callId !== undefined) record.callId = on.callId;
  return [record];
}
