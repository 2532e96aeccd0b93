// The reasoning round trip without server state: a reasoning item's `encrypted_content` carries the gateway's
// reasoning_details of that block (Anthropic thinking signatures and redacted thinking, Gemini thought signatures,
// OpenAI encrypted reasoning), so a client that sends the item back (Codex does, with
// include: ["reasoning.encrypted_content"]) gives every provider its own trace again.
// Format: "mg1." + base64url(JSON of the details). A value without the prefix came from elsewhere (OpenAI's own
// encrypted reasoning, passed through by a client): it is kept as one opaque `reasoning.encrypted` detail.
import type { ReasoningDetail } from '../../core/chat-types.js';
import { GatewayError } from '../../core/gateway-error.js';

const PREFIX = 'mg1.';

export function encodeReasoningContent(details: readonly ReasoningDetail[]): string {
  return PREFIX + Buffer.from(JSON.stringify(details), 'utf8').toString('base64url');
}

export function decodeReasoningContent(content: string): ReasoningDetail[] {
  if (!content.startsWith(PREFIX)) return [{ type: 'reasoning.encrypted', data: content, format: 'openai-responses-v1' }];
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(content.slice(PREFIX.length), 'base64url').toString('utf8'));
  } catch {
    parsed = undefined;
  }
  if (!Array.isArray(parsed) || !parsed.every(isDetail)) {
    throw new GatewayError(400, 'Invalid request: a reasoning item has encrypted_content that was not issued by this gateway or was modified; send reasoning items back unmodified', {
      field: 'input',
    });
  }
  return parsed;
}

function isDetail(value: unknown): value is ReasoningDetail {
  if (typeof value !== 'object' || value === null) return false;
  const type = (value as { type?: unknown }).type;
  return type === 'reasoning.text' || type === 'reasoning.summary' || type === 'reasoning.encrypted';
}
