// The mark of reasoning state the gateway issued in a Responses reasoning item's `encrypted_content` (its own records
// of any vendor's reasoning, formats/responses/reasoning-content.ts): OpenAI's native lane cannot read such content,
// and a chain that moved between providers carries it.
export const GATEWAY_REASONING_PREFIX = 'mg1.';

/** Whether an input item is a reasoning item whose encrypted content the gateway issued. */
export function isGatewayReasoningItem(item: unknown): boolean {
  if (typeof item !== 'object' || item === null) return false;
  const { type, encrypted_content: content } = item as { type?: unknown; encrypted_content?: unknown };
  return type === 'reasoning' && typeof content === 'string' && content.startsWith(GATEWAY_REASONING_PREFIX);
}
