// Closed output blocks (src/formats/shared/output-blocks.ts) → Responses output items. Item ids are derived from the
// generation id and the output index, so the same item has the same id in every event and in the final Response.
import type { ClosedBlock } from '../shared/output-blocks.js';
import { encodeReasoningContent } from './reasoning-content.js';
import type { ResponseOutputItem } from './wire-types.js';

export interface ItemOptions {
  /** The request's `include` asks for `reasoning.encrypted_content`. */
  encryptedReasoning: boolean;
}

const PREFIX = { text: 'msg', reasoning: 'rs', tool_call: 'fc' } as const;


export function itemId(generationId: string, type: ClosedBlock['type'], outputIndex: number): string {
  return `${PREFIX[type]}_${generationId}_${outputIndex}`;
}

export function outputItem(generationId: string, outputIndex: number, block: ClosedBlock, options: ItemOptions): ResponseOutputItem {
  const id = itemId(generationId, block.type, outputIndex);
  switch (block.type) {
    case 'text':
      return { type: 'message', id, status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: block.text, annotations: [] }] } as ResponseOutputItem;
    case 'tool_call':
      if (block.kind === 'custom') return { type: 'custom_tool_call', id, call_id: block.id, name: block.name, input: block.input, status: 'completed' } as unknown as ResponseOutputItem;
      return { type: 'function_call', id, call_id: block.id, name: block.name, arguments: block.input, status: 'completed' } as ResponseOutputItem;
    case 'reasoning': {
      const item: Record<string, unknown> = { type: 'reasoning', id, summary: block.text === '' ? [] : [{ type: 'summary_text', text: block.text }] };
      if (options.encryptedReasoning && block.records.length > 0) item.encrypted_content = encodeReasoningContent(block.records);
      return item as ResponseOutputItem;
    }
  }
}
