// Reasoning records ⇄ the `reasoning_details` entries of the chat dialects that have them (OpenRouter):
// `reasoning.text` (text, signature), `reasoning.summary` and `reasoning.encrypted` (data), each with its `format`.
// Vendor state, so entries are read and written field for field, never merged or trimmed.
import type { ReasoningBlock } from '../../core/content-blocks.js';
import type { ReasoningState } from '../../core/generation.js';
import { isRecord } from '../payload-readers.js';

/** An entry of a known type → its record; undefined for anything else. */
export function recordOfDetail(detail: unknown): ReasoningState | undefined {
  if (!isRecord(detail)) return undefined;
  const record: ReasoningState = {};
  switch (detail.type) {
    case 'reasoning.text':
      if (typeof detail.text === 'string') record.text = detail.text;
      if (typeof detail.signature === 'string') record.signature = detail.signature;
      break;
    case 'reasoning.summary':
      record.text = typeof detail.summary === 'string' ? detail.summary : '';
      record.summary = true;
      break;
    case 'reasoning.encrypted':
      record.data = typeof detail.data === 'string' ? detail.data : '';
      break;
    default:
      return undefined;
  }
  if (typeof detail.format === 'string') record.format = detail.format;
  if (typeof detail.id === 'string' && detail.id !== '') record.id = detail.id;
  if (typeof detail.index === 'number' && Number.isInteger(detail.index) && detail.index >= 0)
    record.index = detail.index;
  return record;
}

/** The records of a `reasoning_details` array; entries of unknown types are left out. */
export function recordsOfDetails(value: unknown): ReasoningState[] {
  if (!Array.isArray(value)) return [];
  return value.map(recordOfDetail).filter((record): record is ReasoningState => record !== undefined);
}

/** A record → its entry, numbered by `index` when it carries no index of its own. */
export function detailOfRecord(record: ReasoningState | ReasoningBlock, index: number): Record<string, unknown> {
  const common: Record<string, unknown> = { index: record.index ?? index };
  if (record.format !== undefined) common.format = record.format;
  const id = record.callId ?? record.id;
  if (id !== undefined) common.id = id;
  if (record.data !== undefined) return { type: 'reasoning.encrypted', data: record.data, ...common };
  if (record.summary === true) return { type: 'reasoning.summary', summary: record.text ?? '', ...common };
  const entry: Record<string, unknown> = { type: 'reasoning.text', text: record.text ?? '' };
  if (record.signature !== undefined) entry.signature = record.signature;
  return { ...entry, ...common };
}

/** True for a record with vendor state (it travels as an entry); plain reasoning text travels as text. */
export function isStateRecord(record: ReasoningState | ReasoningBlock): boolean {
  return (
    record.signature !== undefined ||
    record.data !== undefined ||
    record.summary === true ||
    record.format !== undefined ||
    record.id !== undefined
  );
}
