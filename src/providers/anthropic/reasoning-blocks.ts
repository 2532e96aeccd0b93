// Anthropic thinking blocks ⇄ the gateway's reasoning records. Claude verifies the signature of every thinking block it
// gets back, so blocks travel byte for byte: the text and signature (or the redacted data) are copied, never trimmed,
// re-encoded or merged.
import type { ReasoningBlock } from '../../core/content-blocks.js';
import type { ReasoningState } from '../../core/generation.js';
import { REASONING_FORMAT, type AnthropicReasoningBlock } from './wire-types.js';

/** A thinking block of a reply → its record, with its signature. */
export function thinkingRecord(text: string, signature: string | undefined, index: number): ReasoningState {
  const record: ReasoningState = { text, format: REASONING_FORMAT, index };
  if (signature !== undefined) record.signature = signature;
  return record;
}

/** A redacted_thinking block of a reply → its record, carrying the opaque data. */
export function redactedRecord(data: string, index: number): ReasoningState {
  return { data, format: REASONING_FORMAT, index };
}

/**
 * A reasoning record of an earlier turn → the thinking block to replay, or undefined. Records of other providers
 * (another `format`), summaries, and text without a signature cannot be verified by Claude, so they are left out
 * instead of failing the request.
 */
export function restoreReasoningBlock(record: ReasoningBlock): AnthropicReasoningBlock | undefined {
  if (record.format !== undefined && record.format !== REASONING_FORMAT) return undefined;
  if (typeof record.data === 'string')
    return record.data !== '' ? { type: 'redacted_thinking', data: record.data } : undefined;
  if (
    record.summary !== true &&
    typeof record.text === 'string' &&
    typeof record.signature === 'string' &&
    record.signature !== ''
  ) {
    return { type: 'thinking', thinking: record.text, signature: record.signature };
  }
  return undefined;
}
