// A custom (freeform) tool's call comes back from a vendor as a function call whose arguments are `{"input": "..."}`
// (lower-tools.ts), streamed as fragments of JSON text. The client wants the raw text, streamed as it comes
// (Responses `response.custom_tool_call_input.delta`), so the string value of `input` is decoded fragment by fragment:
// escapes are resolved as soon as they are complete, nothing is held back longer than an escape sequence. Arguments
// of another shape (a model that ignored the schema) are given whole when the call ends: the first string property,
// or else the JSON text itself.
import { CUSTOM_INPUT } from './lower-tools.js';

type State = 'seek' | 'value' | 'done';

const ESCAPES: Readonly<Record<string, string>> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};
const KEY = new RegExp(`^\\s*\\{\\s*"${CUSTOM_INPUT}"\\s*:\\s*"`);

export class CustomInputDecoder {
  private raw = '';
  private state: State = 'seek';
  /** Characters of `raw` consumed by the value decoder. */
  private at = 0;
  private emitted = false;

  /** The raw text the next fragment of JSON adds (may be empty). */
  push(fragment: string): string {
    this.raw += fragment;
    if (this.state === 'seek') {
      const key = KEY.exec(this.raw);
      if (!key) return '';
      this.state = 'value';
      this.at = key[0].length;
    }
    return this.state === 'value' ? this.decode() : '';
  }

  /** What is left when the call ends: the whole input, when the arguments were not `{"input": "..."}` as streamed. */
  end(): string {
    if (this.emitted || this.state !== 'seek') return '';
    return decodeWhole(this.raw);
  }

  private decode(): string {
    let out = '';
    const raw = this.raw;
    let i = this.at;
    while (i < raw.length) {
      const c = raw[i];
      if (c === '"') {
        this.state = 'done';
        i++;
        break;
      }
      if (c !== '\\') {
        out += c;
        i++;
        continue;
      }
      if (i + 1 >= raw.length) break; // the escape's next character has not come yet
      const next = raw[i + 1];
      if (next === 'u') {
        if (i + 6 > raw.length) break;
        out += String.fromCharCode(parseInt(raw.slice(i + 2, i + 6), 16));
        i += 6;
      } else {
        out += ESCAPES[next] ?? next;
        i += 2;
      }
    }
    this.at = i;
    if (out !== '') this.emitted = true;
    return out;
  }
}

/** A whole custom call's arguments → its raw input (see the file comment for other shapes). */
export function decodeWhole(args: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(args);
  } catch {
    return args;
  }
  if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) {
    const record = parsed as Record<string, unknown>;
    if (typeof record[CUSTOM_INPUT] === 'string') return record[CUSTOM_INPUT];
    const first = Object.values(record).find((value) => typeof value === 'string');
    if (typeof first === 'string') return first;
  }
  return typeof parsed === 'string' ? parsed : args;
}
