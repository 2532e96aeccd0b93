// AdapterCompletion → the spec's non-streamed Completion object.
import type { AdapterCompletion } from '../../core/generation.js';
import type { AssistantResponseMessage, ChatCompletion } from '../../core/chat-types.js';
import type { GenerationIdentity, GenerationTotals } from '../../core/stream-renderer.js';
import { toWireUsage } from './wire-usage.js';

export function buildCompletion(result: AdapterCompletion, totals: GenerationTotals, identity: GenerationIdentity): ChatCompletion {
  const message: AssistantResponseMessage = { role: 'assistant', content: result.content };
  if (result.toolCalls?.length) message.tool_calls = result.toolCalls;
  if (result.reasoning) message.reasoning = result.reasoning;
  if (result.reasoningDetails?.length) message.reasoning_details = result.reasoningDetails;
  if (result.refusal) message.refusal = result.refusal;
  return {
    id: identity.id,
    object: 'chat.completion',
    created: identity.created,
    model: identity.model,
    provider: identity.provider,
    choices: [{ index: 0, message, finish_reason: result.finishReason }],
    usage: toWireUsage(totals.usage, totals.costNanos, totals.accessMode),
  } as ChatCompletion;
}
