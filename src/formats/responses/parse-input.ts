// Responses `input` items → the internal conversation. Assistant-side items in a row (reasoning, assistant message,
// function_call, custom_tool_call) are one assistant turn: the Responses API lists a turn's reasoning, text and calls
// as separate items, the internal model holds them as one turn's blocks. A user, system or developer message or a
// tool output ends the turn. Leading system and developer messages join the instructions.
// Items that declare tools (`additional_tools`, the tools a client-run tool search loaded) add them to the request's
// tools; a client-run tool search's call and output replay as a tool call and its result. A `web_search_call` is the
// record of a search the vendor ran and answered in the text that follows: no vendor takes another's search back, so
// it is left out of the conversation.
import type {
  AssistantBlock,
  ImageBlock,
  TextBlock,
  ToolCallBlock,
  ToolResultBlock,
} from '../../core/content-blocks.js';
import { GatewayError } from '../../core/gateway-error.js';
import type { Instruction, Tool, Turn } from '../../core/generation-request.js';
import { mediaSourceOfUrl } from '../shared/media-source.js';
import { decodeReasoningContent } from './reasoning-content.js';
import { addTools, toolListOf } from './parse-tools.js';
import type {
  ResponseInputContent,
  ResponseInputItem,
  ResponseInputMessage,
  ResponseReasoningItem,
} from './wire-types.js';

const KNOWN_ITEMS = new Set([
  'message',
  'function_call',
  'function_call_output',
  'reasoning',
  'custom_tool_call',
  'custom_tool_call_output',
  'additional_tools',
  'tool_search_call',
  'tool_search_output',
  'web_search_call',
]);

type Item = Record<string, unknown>;

function image(part: Extract<ResponseInputContent, { type: 'input_image' }>): ImageBlock {
  const block: ImageBlock = { type: 'image', source: mediaSourceOfUrl(part.image_url) };
  if (part.detail) block.detail = part.detail;
  return block;
}

function partText(part: ResponseInputContent): string | undefined {
  if (part.type === 'refusal') return part.refusal;
  if (part.type === 'input_text' || part.type === 'output_text') return part.text;
  return undefined;
}

function unsupportedPart(part: { type?: unknown }, field: string): GatewayError {
  return new GatewayError(
    400,
    `Invalid request: content parts of type "${String(part.type)}" are not supported for this model`,
    { field },
  );
}

function userBlocks(content: string | ResponseInputContent[], field: string): Array<TextBlock | ImageBlock> {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return content.map((part, i) => {
    if (part.type === 'input_image') return image(part);
    const text = partText(part);
    if (text === undefined) throw unsupportedPart(part, `${field}.content[${i}]`);
    return { type: 'text', text };
  });
}

/** Tool output: its text parts joined by newlines (one text block, as the chat format's tool message holds), its images after. */
function outputBlocks(output: unknown, field: string): ToolResultBlock['content'] {
  if (typeof output === 'string') return [{ type: 'text', text: output }];
  if (!Array.isArray(output)) return [];
  const texts: string[] = [];
  const images: ImageBlock[] = [];
  (output as ResponseInputContent[]).forEach((part, i) => {
    if (part.type === 'input_image') images.push(image(part));
    else {
      const text = partText(part);
      if (text === undefined) throw unsupportedPart(part, `${field}.output[${i}]`);
      if (text !== '') texts.push(text);
    }
  });
  return [...(texts.length > 0 ? [{ type: 'text' as const, text: texts.join('\n') }] : []), ...images];
}

function reasoningBlocks(item: ResponseReasoningItem): AssistantBlock[] {
  const blocks: AssistantBlock[] = [];
  const summary = item.summary.map((part) => part.text).join('\n\n');
  if (summary !== '') blocks.push({ type: 'reasoning', text: summary });
  if (typeof item.encrypted_content === 'string' && item.encrypted_content !== '') {
    blocks.push(...decodeReasoningContent(item.encrypted_content, item.id));
  }
  return blocks;
}

function instruction(message: ResponseInputMessage, field: string): Instruction {
  const out: Instruction = {
    content: userBlocks(message.content, field).filter((block): block is TextBlock => block.type === 'text'),
  };
  if (message.role === 'developer') out.developer = true;
  return out;
}

/** What a tool search's output tells the model: the tools it loaded (declared to the vendor with the others). */
function loadedToolsText(tools: readonly Tool[]): string {
  if (tools.length === 0) return 'No tools found.';
  const names = tools.map((tool) =>
    tool.type !== 'hosted' && tool.namespace !== undefined ? `${tool.namespace}.${tool.name}` : tool.name,
  );
  return `Tools loaded: ${names.join(', ')}`;
}

/** A tool search's arguments as JSON text (OpenAI gives them as an object). */
function argumentsText(value: unknown): string {
  if (typeof value === 'string') return value;
  return value === undefined || value === null ? '{}' : JSON.stringify(value);
}

export interface ParsedInput {
  system: Instruction[];
  messages: Turn[];
  /** Tools the input declares, in order. */
  tools: Tool[];
}

export function parseInput(input: string | ResponseInputItem[], instructions: string | null | undefined): ParsedInput {
  const system: Instruction[] = [];
  const messages: Turn[] = [];
  const tools: Tool[] = [];
  if (typeof instructions === 'string' && instructions !== '')
    system.push({ content: [{ type: 'text', text: instructions }] });
  if (typeof input === 'string')
    return { system, messages: [{ role: 'user', content: [{ type: 'text', text: input }] }], tools };
  let turn: AssistantBlock[] | undefined;
  const assistant = (): AssistantBlock[] => (turn ??= []);
  const flush = () => {
    if (turn) messages.push({ role: 'assistant', content: turn });
    turn = undefined;
  };
  input.forEach((raw, index) => {
    const item = raw as unknown as Item;
    const field = `input[${index}]`;
    const type = typeof item.type === 'string' ? item.type : 'message';
    if (!KNOWN_ITEMS.has(type)) {
      throw new GatewayError(
        400,
        `Invalid request: input items of type "${type}" are not supported for this model; send ${[...KNOWN_ITEMS].join(', ')} items`,
        {
          field,
        },
      );
    }
    switch (type) {
      case 'reasoning':
        assistant().push(...reasoningBlocks(raw as ResponseReasoningItem));
        break;
      case 'function_call':
      case 'custom_tool_call': {
        const custom = type === 'custom_tool_call';
        const input = custom ? item.input : item.arguments;
        const call: ToolCallBlock = {
          type: 'tool_call',
          id: String(item.call_id),
          name: String(item.name),
          kind: custom ? 'custom' : 'function',
          input: typeof input === 'string' ? input : '',
        };
        if (typeof item.namespace === 'string' && item.namespace !== '') call.namespace = item.namespace;
        assistant().push(call);
        break;
      }
      case 'tool_search_call':
        assistant().push({
          type: 'tool_call',
          id: String(item.call_id ?? item.id),
          name: 'tool_search',
          kind: 'tool_search',
          input: argumentsText(item.arguments),
        });
        break;
      case 'function_call_output':
      case 'custom_tool_call_output': {
        flush();
        const result: ToolResultBlock = {
          type: 'tool_result',
          callId: String(item.call_id),
          content: outputBlocks(item.output, field),
        };
        if (type === 'custom_tool_call_output') result.kind = 'custom';
        messages.push({ role: 'user', content: [result] });
        break;
      }
      case 'tool_search_output': {
        flush();
        const loaded = toolListOf(item.tools, `${field}.tools`);
        addTools(tools, loaded);
        messages.push({
          role: 'user',
          content: [
            {
              type: 'tool_result',
              callId: String(item.call_id ?? item.id),
              content: [{ type: 'text', text: loadedToolsText(loaded) }],
            },
          ],
        });
        break;
      }
      case 'additional_tools':
        addTools(tools, toolListOf(item.tools, `${field}.tools`));
        break;
      case 'web_search_call':
        break;
      default: {
        const message = raw as ResponseInputMessage;
        if (message.role === 'assistant') {
          const target = assistant();
          const parts =
            typeof message.content === 'string'
              ? [{ type: 'output_text' as const, text: message.content }]
              : message.content;
          parts.forEach((part, i) => {
            if (part.type === 'refusal') target.push({ type: 'refusal', text: part.refusal });
            else if (part.type === 'output_text' || part.type === 'input_text')
              target.push({ type: 'text', text: part.text });
            else throw unsupportedPart(part, `${field}.content[${i}]`);
          });
        } else if (message.role === 'system' || message.role === 'developer') {
          flush();
          const given = instruction(message, field);
          if (messages.length === 0) system.push(given);
          else messages.push({ role: 'system', ...given });
        } else {
          flush();
          messages.push({ role: 'user', content: userBlocks(message.content, field) });
        }
      }
    }
  });
  flush();
  return { system, messages, tools };
}
