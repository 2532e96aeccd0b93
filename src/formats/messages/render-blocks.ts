// The shared output blocks → Messages content blocks (whole, for the JSON body and for content_block_start).
import type { ClosedBlock, OpenedBlock } from '../shared/output-blocks.js';
import { isRedacted, redactedData, thinkingSignature } from './reasoning-signatures.js';
import type { MessagesOutputBlock } from './wire-types.js';

/** Tool arguments are a JSON string inside, an object here. Anything but a JSON object (a provider's malformed
 *  arguments) is shown as an empty input rather than failing a reply the client was billed for. */
export function toolInput(args: string): Record<string, unknown> {
  if (args.trim() === '') return {};
  try {
    const parsed: unknown = JSON.parse(args);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

export function renderClosedBlock(block: ClosedBlock): MessagesOutputBlock {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text };
    case 'tool_call':
      return { type: 'tool_use', id: block.id, name: block.name, input: toolInput(block.input) };
    case 'reasoning':
      if (block.text === '' && isRedacted(block.records))
        return { type: 'redacted_thinking', data: redactedData(block.records) };
      return { type: 'thinking', thinking: block.text, signature: thinkingSignature(block) };
    case 'web_search':
      throw unsequenced();
  }
}

/** The Messages door's sequencer runs without `sources`: web searches never reach its renderers. */
function unsequenced(): Error {
  return new Error('web search blocks are not sequenced for the Messages door');
}

/** A block as content_block_start announces it: empty, except redacted thinking, which comes whole. */
export function renderOpenedBlock(block: OpenedBlock): MessagesOutputBlock {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: '' };
    case 'tool_call':
      return { type: 'tool_use', id: block.id, name: block.name, input: {} };
    case 'reasoning':
      return isRedacted(block.records)
        ? { type: 'redacted_thinking', data: redactedData(block.records) }
        : { type: 'thinking', thinking: '', signature: '' };
    case 'web_search':
      throw unsequenced();
  }
}
