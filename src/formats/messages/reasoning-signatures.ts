// Reasoning state ⇄ Messages thinking blocks. Claude's own thinking travels byte for byte: its signature and its
// redacted data are Anthropic's. Reasoning of every other provider (Gemini thought signatures, OpenAI encrypted
// reasoning, unsigned text) has no place in the Messages format, so its reasoning_details ride inside the block's
// opaque `signature` (or `data`) in the gateway's own encoding and come back exactly when the client replays the
// block, whatever model the next turn goes to (each adapter keeps only the details of its own format).
import type { ReasoningDetail } from '../../core/chat-types.js';
import type { ClosedBlock } from '../shared/output-blocks.js';

/** Claude's reasoning_details `format` (src/providers/anthropic/wire-types.ts). */
export const ANTHROPIC_FORMAT = 'anthropic-claude-v1';
/** Prefix of gateway-encoded reasoning state; Anthropic signatures never start with it (they are base64). */
const ENCODED_PREFIX = 'mg.rd1.';

function encode(details: readonly ReasoningDetail[]): string {
  return ENCODED_PREFIX + Buffer.from(JSON.stringify(details), 'utf8').toString('base64url');
}

function decode(value: string): ReasoningDetail[] | undefined {
  if (!value.startsWith(ENCODED_PREFIX)) return undefined;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(value.slice(ENCODED_PREFIX.length), 'base64url').toString('utf8'));
    if (!Array.isArray(parsed)) return undefined;
    return parsed.filter((d): d is ReasoningDetail => typeof d === 'object' && d !== null && typeof (d as { type?: unknown }).type === 'string');
  } catch {
    return undefined;
  }
}

function isClaude(detail: ReasoningDetail): boolean {
  return detail.format === ANTHROPIC_FORMAT;
}

/** The `signature` of a thinking block: Claude's own, the encoded details of another provider, or '' for none. */
export function thinkingSignature(block: ClosedBlock & { type: 'reasoning' }): string {
  if (block.details.length === 0) return '';
  const only = block.details.length === 1 ? block.details[0] : undefined;
  if (only && isClaude(only) && only.type === 'reasoning.text' && typeof only.signature === 'string') return only.signature;
  return encode(block.details);
}

/** The `data` of a redacted_thinking block made of encrypted details. */
export function redactedData(details: readonly ReasoningDetail[]): string {
  const only = details.length === 1 ? details[0] : undefined;
  if (only && isClaude(only) && only.type === 'reasoning.encrypted') return only.data;
  return encode(details);
}

/** True when a reasoning block opened with its content (encrypted details) and is rendered as redacted_thinking. */
export function isRedacted(details: readonly ReasoningDetail[]): boolean {
  return details.length > 0 && details.every((detail) => detail.type === 'reasoning.encrypted');
}

/** A thinking block sent back → the reasoning_details it stands for. */
export function detailsOfThinking(thinking: string, signature: string | undefined, index: number): ReasoningDetail[] {
  const decoded = signature ? decode(signature) : undefined;
  if (decoded) return decoded;
  if (!signature) return []; // unsigned thinking cannot be verified by any provider: dropped
  return [{ type: 'reasoning.text', text: thinking, signature, format: ANTHROPIC_FORMAT, index }];
}

/** A redacted_thinking block sent back → its reasoning_details. */
export function detailsOfRedacted(data: string, index: number): ReasoningDetail[] {
  return decode(data) ?? (data ? [{ type: 'reasoning.encrypted', data, format: ANTHROPIC_FORMAT, index }] : []);
}
