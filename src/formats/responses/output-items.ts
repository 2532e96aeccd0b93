// Closed output blocks (src/formats/shared/output-blocks.ts) → Responses output items. Item ids are derived from the
// generation id and the output index, so the same item has the same id in every event and in the final Response.
import type { ClosedBlock, PlacedCitation, WebSearch } from '../shared/output-blocks.js';
import { encodeReasoningContent } from './reasoning-content.js';
import { urlCitationOf } from '../shared/url-citations.js';
import type { ResponseOutputItem } from './wire-types.js';

export interface ItemOptions {
  /** The request's `include` asks for `reasoning.encrypted_content`. */
  encryptedReasoning: boolean;
}

const PREFIX = { text: 'msg', reasoning: 'rs', tool_call: 'fc', web_search: 'ws' } as const;

export function itemId(generationId: string, type: ClosedBlock['type'], outputIndex: number): string {
  return `${PREFIX[type]}_${generationId}_${outputIndex}`;
}

type ToolCall = Extract<ClosedBlock, { type: 'tool_call' }>;

/** A tool search's arguments as the object OpenAI gives (the model's JSON text; `{}` when it is no JSON object). */
function searchArguments(input: string): unknown {
  try {
    const parsed: unknown = JSON.parse(input);
    return parsed !== null && typeof parsed === 'object' ? parsed : {};
  } catch {
    return {};
  }
}

/**
 * A tool call's item: `custom_tool_call` with its raw input, `tool_search_call` (run by the client) with its
 * arguments, or `function_call` with its arguments and, for a tool of a namespace, the namespace (as OpenAI sends it).
 */
export function toolCallItem(
  id: string,
  block: Omit<ToolCall, 'input'> & { input: string },
  status: 'in_progress' | 'completed',
): Record<string, unknown> {
  if (block.kind === 'custom')
    return { type: 'custom_tool_call', id, call_id: block.id, name: block.name, input: block.input, status };
  if (block.kind === 'tool_search')
    return {
      type: 'tool_search_call',
      id,
      call_id: block.id,
      execution: 'client',
      arguments: searchArguments(block.input),
      status,
    };
  const item: Record<string, unknown> = {
    type: 'function_call',
    id,
    call_id: block.id,
    name: block.name,
    arguments: block.input,
    status,
  };
  if (block.namespace !== undefined) item.namespace = block.namespace;
  return item;
}

/**
 * A citation as a Responses annotation: `url_citation` for a cited web page (Anthropic's web_search_result_location,
 * OpenAI's own); other citations (document locations) have no Responses form here and are left out.
 */
export function annotationOf({ citation, start, end }: PlacedCitation): Record<string, unknown> | undefined {
  const page = urlCitationOf(citation);
  return page
    ? { type: 'url_citation', url: page.url, title: page.title ?? '', start_index: start, end_index: end }
    : undefined;
}

function annotationsOf(citations: readonly PlacedCitation[] | undefined): unknown[] {
  return (citations ?? []).flatMap((placed) => annotationOf(placed) ?? []);
}

/** A web search the vendor ran, as OpenAI's `web_search_call` item (a `search` action with its queries and sources). */
export function webSearchItem(
  id: string,
  search: WebSearch,
  status: 'in_progress' | 'completed',
): Record<string, unknown> {
  const action: Record<string, unknown> = { type: 'search' };
  if (search.queries.length > 0) {
    action.query = search.queries[0];
    action.queries = search.queries;
  }
  if (status === 'completed') action.sources = search.sources.map((source) => ({ type: 'url', url: source.url }));
  return {
    type: 'web_search_call',
    id,
    status: status === 'completed' && search.status === 'failed' ? 'failed' : status,
    action,
  };
}

export function outputItem(
  generationId: string,
  outputIndex: number,
  block: ClosedBlock,
  options: ItemOptions,
): ResponseOutputItem {
  const id = itemId(generationId, block.type, outputIndex);
  switch (block.type) {
    case 'text':
      return {
        type: 'message',
        id,
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'output_text', text: block.text, annotations: annotationsOf(block.citations) }],
      } as ResponseOutputItem;
    case 'web_search':
      return webSearchItem(id, block.search, 'completed') as unknown as ResponseOutputItem;
    case 'tool_call':
      return toolCallItem(id, block, 'completed') as unknown as ResponseOutputItem;
    case 'reasoning': {
      const item: Record<string, unknown> = {
        type: 'reasoning',
        id,
        summary: block.text === '' ? [] : [{ type: 'summary_text', text: block.text }],
      };
      if (options.encryptedReasoning && block.records.length > 0)
        item.encrypted_content = encodeReasoningContent(block.records);
      return item as ResponseOutputItem;
    }
  }
}
