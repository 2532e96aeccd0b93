// A whole generation → the spec's non-streamed Completion object: the answer text as `content`, reasoning text as
// `reasoning` and its records as `reasoning_details`, tool calls, a refusal.
import type { GenerationResult } from '../../core/generation.js';
import type { GenerationIdentity, GenerationTotals } from '../../core/stream-renderer.js';
import { detailOfReasoning, hasReasoningState } from '../shared/reasoning-details.js';
import type { AssistantResponseMessage, ChatCompletion, ReasoningDetail, ToolCall } from './wire-types.js';
import { toWireUsage } from './wire-usage.js';

function assistantMessage(result: GenerationResult): AssistantResponseMessage {
  let content: string | null = null;
  let reasoning = '';
  let refusal = '';
  const details: ReasoningDetail[] = [];
  const toolCalls: ToolCall[] = [];
  for (const block of result.output) {
    switch (block.type) {
      case 'text':
        content = (content ?? '') + block.text;
        break;
      case 'reasoning': {
        reasoning += block.text ?? '';
        const { type: _type, ...state } = block;
        if (hasReasoningState(state)) details.push(detailOfReasoning(state, details.length) as ReasoningDetail);
        break;
      }
      case 'refusal':
        refusal += block.text;
        break;
      case 'tool_call':
        toolCalls.push({ id: block.id, type: 'function', function: { name: block.name, arguments: block.input } });
        break;
    }
  }
  const message: AssistantResponseMessage = { role: 'assistant', content };
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  if (reasoning !== '') message.reasoning = reasoning;
  if (details.length > 0) message.reasoning_details = details;
  if (refusal !== '') message.refusal = refusal;
  return message;
}

export function buildCompletion(result: GenerationResult, totals: GenerationTotals, identity: GenerationIdentity): ChatCompletion {
  return {
    id: identity.id,
    object: 'chat.completion',
    created: identity.created,
    model: identity.model,
    provider: identity.provider,
    choices: [{ index: 0, message: assistantMessage(result), finish_reason: result.finishReason }],
    usage: toWireUsage(totals.usage, totals.costNanos, totals.accessMode),
  } as ChatCompletion;
}
