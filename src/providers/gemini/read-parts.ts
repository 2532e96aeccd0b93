// One Gemini response `Part` → what the gateway shows for it: answer text, thought text (parts with
// `thought: true`), or a function call with a generated id; plus the reasoning record that carries the part's
// thought signature, if any. Shared by the JSON and the stream translation so both name calls and number
// blocks alike. Part kinds the gateway never asks for (inline data, code execution, ...) are skipped.
import type { ToolCallBlock } from '../../core/content-blocks.js';
import type { ReasoningState } from '../../core/generation.js';
import { isRecord, readRecord, readString } from '../payload-readers.js';
import { signatureRecord, thoughtRecord } from './thought-signatures.js';
import { toolCallId } from './tool-call-ids.js';

export type ReadPart =
  | { kind: 'text'; text: string; record?: ReasoningState }
  | { kind: 'thought'; text: string; record?: ReasoningState }
  | { kind: 'tool-call'; index: number; call: ToolCallBlock; record?: ReasoningState }
  | { kind: 'skip' }
  | { kind: 'invalid'; reason: string };

/** Counters that run across one reply (all chunks of a stream). */
export interface PartCursor {
  responseId?: string;
  toolCalls: number;
  details: number;
}

export function newCursor(): PartCursor {
  return { toolCalls: 0, details: 0 };
}

export function readPart(raw: unknown, cursor: PartCursor): ReadPart {
  if (!isRecord(raw)) return { kind: 'invalid', reason: 'a content part is not an object' };
  const signature = readString(raw.thoughtSignature) || undefined;
  const nextDetailIndex = () => cursor.details++;

  const call = readRecord(raw.functionCall);
  if (raw.functionCall !== undefined) {
    const name = readString(call?.name);
    if (!call || !name) return { kind: 'invalid', reason: 'a functionCall part has no name' };
    const args = call.args === undefined || call.args === null ? {} : call.args;
    const argumentsJson = JSON.stringify(args);
    const index = cursor.toolCalls++;
    const id = toolCallId(call.id, { responseId: cursor.responseId, index, name, argumentsJson });
    const out: ReadPart = {
      kind: 'tool-call',
      index,
      call: { type: 'tool_call', id, name, kind: 'function', input: argumentsJson },
    };
    if (signature) out.record = signatureRecord(signature, nextDetailIndex(), id);
    return out;
  }

  const text = readString(raw.text);
  if (raw.thought === true) {
    const out: ReadPart = { kind: 'thought', text: text ?? '' };
    if (signature) out.record = thoughtRecord(text ?? '', signature, nextDetailIndex());
    return out;
  }
  // A signature may also come on an otherwise empty text part (Gemini 3 ends replies that way).
  if (text !== undefined || signature) {
    const out: ReadPart = { kind: 'text', text: text ?? '' };
    if (signature) out.record = signatureRecord(signature, nextDetailIndex());
    return out;
  }
  return { kind: 'skip' };
}
