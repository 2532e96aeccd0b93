// Gemini function calls carry no id on generateContent (FunctionCall.id is optional and normally empty), but
// chat-completions clients echo an id back in `tool_call_id`. The gateway makes one up, deterministically, so a
// streamed and a non-streamed reply of the same response name their calls alike and tests can predict them.
import { createHash } from 'node:crypto';

/** The vendor's id when it sent one; otherwise `call_` + 24 hex digits of a hash over what identifies the call. */
export function toolCallId(
  vendorId: unknown,
  call: { responseId: string | undefined; index: number; name: string; argumentsJson: string },
): string {
  const { responseId, index, name, argumentsJson } = call;
  if (typeof vendorId === 'string' && vendorId !== '') return vendorId;
  const digest = createHash('sha256')
    .update(`${responseId ?? ''}\u0000${index}\u0000${name}\u0000${argumentsJson}`)
    .digest('hex');
  return `call_${digest.slice(0, 24)}`;
}
