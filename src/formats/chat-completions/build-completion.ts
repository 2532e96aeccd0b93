// A whole generation → the spec's non-streamed Completion object: the answer text as `content`, reasoning text as
// `reasoning` and its records as `reasoning_details`, tool calls, a refusal, the web pages the text cites as
// `annotations`.
import type { GenerationResult } from '../../core/generation.js';
import type { GenerationIdentity, GenerationTotals } from '../../core/stream-renderer.js';
import { detailOfReasoning, hasReasoningState } from '../shared/reasoning-details.js';
import { chatAnnotation } from '../shared/url-citations.js';
import type { AssistantResponseMessage, ChatCompletion, ReasoningDetail, ToolCall } from './wire-types.js';
import { toWireUsage } from './wire-usage.js';

function assistantMessage(result: GenerationResult): AssistantResponseMessage {
  let content: string | null = null;
  let reasoning = '';
  let refusal = '';
  const details: ReasoningDetail[] = [];
  const toolCalls: ToolCall[] = [];
  const annotations: unknown[] = [];
  for (const block of result.output) {
    switch (block.type) {
      case 'text': {
        const start = content?.length ?? 0;
        content = (content ?? '') + block.text;
        // A whole reply's citation covers the text block it came with.
        for (const citation of block.citations ?? []) {
          const annotation = chatAnnotation(citation, start, content.length);
          if (annotation) annotations.push(annotation);
        }
        break;
      }
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
  if (annotations.length > 0) message.annotations = annotations as AssistantResponseMessage['annotations'];
  return message;
}

export function buildCompletion(
  result: GenerationResult,
  totals: GenerationTotals,
  identity: GenerationIdentity,
): ChatCompletion {
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
