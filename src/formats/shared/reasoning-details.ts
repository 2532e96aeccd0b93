// Reasoning records ⇄ `reasoning_details` entries, OpenRouter's shape for them: `reasoning.text` (text, signature),
// `reasoning.summary` (summary) and `reasoning.encrypted` (data), each with the `format` whose state it is. The chat
// door shows reasoning in this shape, and the Messages and Responses doors encode it inside their own opaque fields
// (a thinking block's signature, a reasoning item's encrypted_content), so a client that replays them gives every
// provider its own reasoning state back.
import type { ReasoningBlock } from '../../core/content-blocks.js';
import type { ReasoningState } from '../../core/generation.js';

/** One entry, as the chat spec defines it (spec/chat/reasoning.tsp). */
export type ReasoningDetailEntry =
  | {
      type: 'reasoning.text';
      text: string;
      signature?: string | null;
      format?: string;
      index?: number;
      id?: string | null;
    }
  | { type: 'reasoning.summary'; summary: string; format?: string; index?: number; id?: string | null }
  | { type: 'reasoning.encrypted'; data: string; format?: string; index?: number; id?: string | null };

/** Gemini's format: its encrypted entries' `id` names the function call the signature belongs to. */
const GEMINI_FORMAT = 'google-gemini-v1';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An entry of a known type → the reasoning record it stands for; undefined for anything else. */
export function reasoningOfDetail(detail: unknown): ReasoningBlock | undefined {
  if (!isRecord(detail)) return undefined;
  const block: ReasoningBlock = { type: 'reasoning' };
  switch (detail.type) {
    case 'reasoning.text':
      if (typeof detail.text === 'string') block.text = detail.text;
      if (typeof detail.signature === 'string') block.signature = detail.signature;
      break;
    case 'reasoning.summary':
      block.text = typeof detail.summary === 'string' ? detail.summary : '';
      block.summary = true;
      break;
    case 'reasoning.encrypted':
      block.data = typeof detail.data === 'string' ? detail.data : '';
      break;
    default:
      return undefined;
  }
  if (typeof detail.format === 'string') block.format = detail.format;
  if (typeof detail.id === 'string' && detail.id !== '') {
    if (detail.type === 'reasoning.encrypted' && detail.format === GEMINI_FORMAT) block.callId = detail.id;
    else block.id = detail.id;
  }
  if (typeof detail.index === 'number' && Number.isInteger(detail.index) && detail.index >= 0)
    block.index = detail.index;
  return block;
}

/** A reasoning record → its entry; `index` numbers it when the record carries no index of its own. */
export function detailOfReasoning(state: ReasoningState, index: number): ReasoningDetailEntry {
  const common: { format?: string; index: number; id?: string } = { index: state.index ?? index };
  if (state.format !== undefined) common.format = state.format;
  const id = state.callId ?? state.id;
  if (id !== undefined) common.id = id;
  if (state.data !== undefined) return { type: 'reasoning.encrypted', data: state.data, ...common };
  if (state.summary === true) return { type: 'reasoning.summary', summary: state.text ?? '', ...common };
  const entry: ReasoningDetailEntry = { type: 'reasoning.text', text: state.text ?? '' };
  if (state.signature !== undefined) entry.signature = state.signature;
  return { ...entry, ...common };
}

/** True for a record that carries vendor state (a signature, data, a summary, a format): it travels as a detail. */
export function hasReasoningState(state: ReasoningState): boolean {
  return (
    state.signature !== undefined ||
    state.data !== undefined ||
    state.summary === true ||
    state.format !== undefined ||
    state.id !== undefined
  );
}

/** Every entry of a JSON array that is one → reasoning records; entries of unknown types are left out. */
export function reasoningOfDetails(value: unknown): ReasoningBlock[] {
  if (!Array.isArray(value)) return [];
  return value.map(reasoningOfDetail).filter((block): block is ReasoningBlock => block !== undefined);
}

/** base64url(JSON of the records' entries): the gateway's opaque encoding inside another format's field. */
export function encodeReasoning(prefix: string, records: readonly ReasoningState[]): string {
  return (
    prefix +
    Buffer.from(JSON.stringify(records.map((record, i) => detailOfReasoning(record, i))), 'utf8').toString('base64url')
  );
}

/** The records of a value `encodeReasoning` made with this prefix; undefined when it is not one. */
export function decodeReasoning(prefix: string, value: string): ReasoningBlock[] | undefined {
  if (!value.startsWith(prefix)) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(value.slice(prefix.length), 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (!Array.isArray(parsed)) return undefined;
  const records = reasoningOfDetails(parsed);
  return records.length === parsed.length ? records : undefined;
}
