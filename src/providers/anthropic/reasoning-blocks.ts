// Anthropic thinking blocks ⇄ the gateway's reasoning_details. Claude verifies the signature of every
// thinking block it gets back, so blocks travel byte for byte: the text and signature (or the redacted
// data) are copied, never trimmed, re-encoded or merged.
import type { ReasoningDetail } from '../../core/chat-types.js';
import { REASONING_FORMAT, type AnthropicReasoningBlock } from './wire-types.js';

/** A thinking block of a reply → `reasoning.text` with its signature. */
export function thinkingDetail(text: string, signature: string | undefined, index: number): ReasoningDetail {
  const detail: ReasoningDetail = { type: 'reasoning.text', text, format: REASONING_FORMAT, index };
  if (signature !== undefined) detail.signature = signature;
  return detail;
}

/** A redacted_thinking block of a reply → `reasoning.encrypted` carrying the opaque data. */
export function redactedDetail(data: string, index: number): ReasoningDetail {
  return { type: 'reasoning.encrypted', data, format: REASONING_FORMAT, index };
}

/**
 * reasoning_details a client sent back on an assistant message → the thinking blocks to replay, in the
 * order the client kept them. Entries from other providers (another `format`), summaries, and text
 * without a signature cannot be verified by Claude, so they are left out instead of failing the request.
 */
export function restoreReasoningBlocks(details: readonly ReasoningDetail[] | undefined): AnthropicReasoningBlock[] {
  const blocks: AnthropicReasoningBlock[] = [];
  for (const detail of details ?? []) {
    if (detail.format !== undefined && detail.format !== REASONING_FORMAT) continue;
    if (detail.type === 'reasoning.text' && typeof detail.text === 'string' && typeof detail.signature === 'string' && detail.signature !== '') {
      blocks.push({ type: 'thinking', thinking: detail.text, signature: detail.signature });
    } else if (detail.type === 'reasoning.encrypted' && typeof detail.data === 'string' && detail.data !== '') {
      blocks.push({ type: 'redacted_thinking', data: detail.data });
    }
  }
  return blocks;
}
