// The reasoning round trip without server state: a reasoning item's `encrypted_content` carries the gateway's
// reasoning records of that block (Anthropic thinking signatures and redacted thinking, Gemini thought signatures,
// OpenAI encrypted reasoning), so a client that sends the item back (Codex does, with
// include: ["reasoning.encrypted_content"]) gives every provider its own state again.
// Format: "mg1." + base64url(JSON of the records as reasoning_details entries). A value without the prefix came from
// elsewhere (OpenAI's own encrypted reasoning, passed through by a client): it is kept as one opaque record.
import type { ReasoningBlock } from '../../core/content-blocks.js';
import { GatewayError } from '../../core/gateway-error.js';
import { GATEWAY_REASONING_PREFIX } from '../../core/gateway-reasoning.js';
import type { ReasoningState } from '../../core/generation.js';
import { decodeReasoning, encodeReasoning } from '../shared/reasoning-details.js';

const PREFIX = GATEWAY_REASONING_PREFIX;
/** OpenAI's own reasoning format. */
const OPENAI_FORMAT = 'openai-responses-v1';

export function encodeReasoningContent(records: readonly ReasoningState[]): string {
  return encodeReasoning(PREFIX, records);
}

/** `id`: the reasoning item's id, kept on an opaque record (its vendor may want it back). */
export function decodeReasoningContent(content: string, id?: string): ReasoningBlock[] {
  if (!content.startsWith(PREFIX)) {
    const record: ReasoningBlock = { type: 'reasoning', data: content, format: OPENAI_FORMAT };
    if (typeof id === 'string' && id !== '') record.id = id;
    return [record];
  }
  const records = decodeReasoning(PREFIX, content);
  if (!records) {
    throw new GatewayError(
      400,
      'Invalid request: a reasoning item has encrypted_content that was not issued by this gateway or was modified; send reasoning items back unmodified',
      {
        field: 'input',
      },
    );
  }
  return records;
}
