// Vendor message/delta content → text, reasoning text and reasoning records. Most vendors send a string;
// Mistral's reasoning models send an array of `text` and `thinking` chunks instead.
import type { ReasoningState } from '../../core/generation.js';
import { isRecord, readArray, readRecord, readString } from '../payload-readers.js';
import { recordsOfDetails } from './reasoning-details.js';

/** One streamed tool-call fragment, as the vendor sent it. */
export interface ToolCallFragment {
  index: number;
  id?: string;
  name?: string;
  arguments?: string;
}

export interface SplitContent {
  text?: string;
  reasoning?: string;
}

function textOf(parts: unknown[]): string {
  return parts.map((part) => (isRecord(part) ? (readString(part.text) ?? '') : '')).join('');
}

/** Content as the vendor sent it → answer text and any reasoning text carried inside it. */
export function splitContent(content: unknown): SplitContent {
  if (typeof content === 'string') return { text: content };
  const parts = readArray(content);
  if (!parts) return {};
  let text = '';
  let reasoning = '';
  for (const part of parts) {
    if (!isRecord(part)) continue;
    if (part.type === 'thinking') reasoning += textOf(readArray(part.thinking) ?? []);
    else if (typeof part.text === 'string') text += part.text;
  }
  return { text: text === '' ? undefined : text, reasoning: reasoning === '' ? undefined : reasoning };
}

/** Reasoning text: DeepSeek/xAI `reasoning_content`, OpenRouter/Groq `reasoning`. */
export function readReasoningText(message: Record<string, unknown>): string | undefined {
  return readString(message.reasoning_content) ?? readString(message.reasoning);
}

/** Reasoning records of a known type, field for field (providers verify their signatures). */
export function readReasoningDetails(value: unknown): ReasoningState[] | undefined {
  const records = recordsOfDetails(value);
  return records.length > 0 ? records : undefined;
}

/** Function arguments are a JSON string on the wire; a few vendors send the object itself. */
export function argumentsText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (isRecord(value) || Array.isArray(value)) return JSON.stringify(value);
  return undefined;
}

/** Streamed tool-call fragments; `index` defaults to the position for vendors that omit it. */
export function readToolCallDeltas(value: unknown): ToolCallFragment[] | undefined {
  const raw = readArray(value);
  if (!raw) return undefined;
  const deltas: ToolCallFragment[] = [];
  raw.forEach((entry, position) => {
    if (!isRecord(entry)) return;
    const index =
      typeof entry.index === 'number' && Number.isInteger(entry.index) && entry.index >= 0 ? entry.index : position;
    const delta: ToolCallFragment = { index };
    const id = readString(entry.id);
    if (id) delta.id = id;
    const fn = readRecord(entry.function);
    if (fn) {
      const name = readString(fn.name);
      const args = argumentsText(fn.arguments);
      if (name !== undefined) delta.name = name;
      if (args !== undefined) delta.arguments = args;
    }
    deltas.push(delta);
  });
  return deltas.length > 0 ? deltas : undefined;
}
