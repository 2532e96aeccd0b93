// A whole (non-streamed) generation → the Response object: the completion's blocks in the order a stream would
// have produced them, each an output item.
import type { GenerationResult } from '../../core/generation.js';
import type { GenerationIdentity, GenerationTotals } from '../../core/stream-renderer.js';
import { completionBlocks } from '../shared/output-blocks.js';
import { outputItem, type ItemOptions } from './output-items.js';
import { finishOutcome, responseObject, type ResponseEcho } from './response-object.js';
import type { ResponseObject, ResponseOutputItem } from './wire-types.js';

export function buildResponse(
  result: GenerationResult,
  totals: GenerationTotals,
  identity: GenerationIdentity,
  echo: ResponseEcho,
  options: ItemOptions,
): ResponseObject {
  const output: ResponseOutputItem[] = completionBlocks(result, { sources: true }).map((block, index) =>
    outputItem(identity.id, index, block, options),
  );
  const refusal = result.output.map((block) => (block.type === 'refusal' ? block.text : '')).join('');
  if (refusal !== '') {
    // A refusal is a part of the assistant message (OpenAI): the existing one, or a message of its own.
    const message = output.find((item) => item.type === 'message') as { content: unknown[] } | undefined;
    const part = { type: 'refusal', refusal };
    if (message) message.content.push(part);
    else
      output.push({
        type: 'message',
        id: `msg_${identity.id}_${output.length}`,
        status: 'completed',
        role: 'assistant',
        content: [part],
      } as ResponseOutputItem);
  }
  return responseObject(identity, echo, finishOutcome(result.finishReason), output, totals);
}
