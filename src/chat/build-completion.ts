// AdapterCompletion → the spec's non-streamed Completion object.
import type { AdapterCompletion } from '../core/generation.js';
import type { AssistantResponseMessage, ChatCompletion, Usage } from '../core/chat-types.js';

export interface CompletionIdentity {
  id: string;
  model: string;
  created: number;
  /** The client asked for reasoning to be used but not returned (`reasoning.exclude`). */
  excludeReasoning: boolean;
}

export function buildCompletion(result: AdapterCompletion, identity: CompletionIdentity, usage: Usage): ChatCompletion {
  const message: AssistantResponseMessage = { role: 'assistant', content: result.content };
  if (result.toolCalls?.length) message.tool_calls = result.toolCalls;
  if (!identity.excludeReasoning) {
    if (result.reasoning) message.reasoning = result.reasoning;
    if (result.reasoningDetails?.length) message.reasoning_details = result.reasoningDetails;
  }
  if (result.refusal) message.refusal = result.refusal;
  return {
    id: identity.id,
    object: 'chat.completion',
    created: identity.created,
    model: identity.model,
    choices: [{ index: 0, message, finish_reason: result.finishReason }],
    usage,
  } as ChatCompletion;
}
