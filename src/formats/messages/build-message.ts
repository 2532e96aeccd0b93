// A whole generation → the Messages `Message` object.
import type { GenerationResult } from '../../core/generation.js';
import type { GenerationIdentity, GenerationTotals } from '../../core/stream-renderer.js';
import { completionBlocks } from '../shared/output-blocks.js';
import { renderClosedBlock } from './render-blocks.js';
import { toMessagesUsage, toStopReason } from './wire-usage.js';
import type { MessagesResponse } from './wire-types.js';

export function buildMessage(
  result: GenerationResult,
  totals: GenerationTotals,
  identity: GenerationIdentity,
): MessagesResponse {
  return {
    id: identity.id,
    type: 'message',
    role: 'assistant',
    model: identity.model,
    content: completionBlocks(result).map(renderClosedBlock),
    stop_reason: toStopReason(result.finishReason, result.stopSequence),
    stop_sequence: result.stopSequence ?? null,
    usage: toMessagesUsage(totals.usage),
  };
}
