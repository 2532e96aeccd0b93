// Reasoning records ⇄ Messages thinking blocks. Claude's own thinking travels byte for byte: its signature and its
// redacted data are Anthropic's. Reasoning of every other provider (Gemini thought signatures, OpenAI encrypted
// reasoning, unsigned text) has no place in the Messages format, so its records ride inside the block's opaque
// `signature` (or `data`) in the gateway's own encoding and come back exactly when the client replays the block,
// whatever model the next turn goes to (each adapter keeps only the records of its own format).
import type { ReasoningBlock } from '../../core/content-blocks.js';
import type { ReasoningState } from '../../core/generation.js';
import { decodeReasoning, encodeReasoning } from '../shared/reasoning-details.js';
import type { ClosedBlock } from '../shared/output-blocks.js';

/** Claude's reasoning `format` (src/providers/anthropic/wire-types.ts). */
export const ANTHROPIC_FORMAT = 'anthropic-claude-v1';
/** Prefix of gateway-encoded reasoning state; Anthropic signatures never start with it (they are base64). */
const ENCODED_PREFIX = 'mg.rd1.';

function isClaude(record: ReasoningState): boolean {
  return record.format === ANTHROPIC_FORMAT;
}

/** The `signature` of a thinking block: Claude's own, the encoded records of another provider, or '' for none. */
export function thinkingSignature(block: ClosedBlock & { type: 'reasoning' }): string {
  if (block.records.length === 0) return '';
  const only = block.records.length === 1 ? block.records[0] : undefined;
  if (only && isClaude(only) && only.data === undefined && typeof only.signature === 'string') return only.signature;
  return encodeReasoning(ENCODED_PREFIX, block.records);
}

/** The `data` of a redacted_thinking block made of opaque records. */
export function redactedData(records: readonly ReasoningState[]): string {
  const only = records.length === 1 ? records[0] : undefined;
  if (only && isClaude(only) && only.data !== undefined) return only.data;
  return encodeReasoning(ENCODED_PREFIX, records);
}

/** True when a reasoning block opened with its content (opaque records) and is rendered as redacted_thinking. */
export function isRedacted(records: readonly ReasoningState[]): boolean {
  return records.length > 0 && records.every((record) => record.data !== undefined);
}

/** A thinking block sent back → the reasoning records it stands for. */
export function recordsOfThinking(thinking: string, signature: string | undefined, index: number): ReasoningBlock[] {
  const decoded = signature ? decodeReasoning(ENCODED_PREFIX, signature) : undefined;
  if (decoded) return decoded;
  if (!signature) return []; // unsigned thinking cannot be verified by any provider: dropped
  return [{ type: 'reasoning', text: thinking, signature, format: ANTHROPIC_FORMAT, index }];
}

/** A redacted_thinking block sent back → its reasoning records. */
export function recordsOfRedacted(data: string, index: number): ReasoningBlock[] {
  return (
    decodeReasoning(ENCODED_PREFIX, data) ??
    (data ? [{ type: 'reasoning', data, format: ANTHROPIC_FORMAT, index }] : [])
  );
}
