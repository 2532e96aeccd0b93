// The top-level members of a JSON object, found in its bytes, and a splice that removes, replaces or adds members
// without touching the rest. The native lane sends the client's own request bytes upstream: re-serialising a parsed
// 400 KB body costs more CPU than the whole rest of the proxying, and would normalise what the client wrote (number
// forms, key order, escapes) for no reason. Only the few members the gateway must change are rewritten.
//
// The input has already been parsed by JSON.parse (the router validated it), so the scanner only tracks what it
// needs: string boundaries (escapes included) and bracket depth. It works on UTF-8 bytes: every structural character
// is ASCII, and no byte of a multi-byte UTF-8 sequence is below 0x80, so byte offsets are exact.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;

export interface TopLevelMember {
  key: string;
  /** Offset of the key's opening quote. */
  start: number;
  valueStart: number;
  /** Offset just past the value (and past the member). */
  end: number;
}

export class MalformedJsonObject extends Error {
  constructor(at: number) {
    super(`not a JSON object (at byte ${at})`);
    this.name = 'MalformedJsonObject';
  }
}

function isSpace(byte: number): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

function skipSpace(json: Buffer, at: number): number {
  while (at < json.length && isSpace(json[at])) at++;
  return at;
}

/**
 * Offset just past the string whose opening quote is at `at`. Strings are most of an agent's request (tool outputs,
 * file contents), so the next quote is found by Buffer#indexOf (native memchr), not byte by byte in JavaScript: the
 * byte loop was 23% of the native chat lane's CPU on a 400 KB request. A quote ends the string unless an odd run of
 * backslashes precedes it.
 */
function skipString(json: Buffer, at: number): number {
  let from = at + 1;
  for (;;) {
    const quote = json.indexOf(QUOTE, from);
    if (quote < 0) throw new MalformedJsonObject(at);
    let backslash = quote - 1;
    while (json[backslash] === BACKSLASH) backslash--;
    if ((quote - 1 - backslash) % 2 === 0) return quote + 1;
    from = quote + 1;
  }
}

/** Offset just past the value that starts at `at` (after whitespace). */
function skipValue(json: Buffer, at: number): number {
  const first = json[at];
  if (first === QUOTE) return skipString(json, at);
  if (first === OPEN_BRACE || first === OPEN_BRACKET) {
    let depth = 0;
    for (let i = at; i < json.length; i++) {
      const byte = json[i];
      if (byte === QUOTE) i = skipString(json, i) - 1;
      else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) depth++;
      else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
        if (--depth === 0) return i + 1;
      }
    }
    throw new MalformedJsonObject(at);
  }
  // A number, true, false or null: up to the next delimiter.
  let i = at;
  while (i < json.length) {
    const byte = json[i];
    if (byte === COMMA || byte === CLOSE_BRACE || byte === CLOSE_BRACKET || isSpace(byte)) break;
    i++;
  }
  if (i === at) throw new MalformedJsonObject(at);
  return i;
}

function decodeKey(json: Buffer, start: number, end: number): string {
  // Keys without escapes (all of them, in practice) need no JSON parse.
  for (let i = start + 1; i < end - 1; i++) {
    if (json[i] === BACKSLASH)
      return JSON.parse(Buffer.from(json.buffer, json.byteOffset + start, end - start).toString('utf8')) as string;
  }
  return Buffer.from(json.buffer, json.byteOffset + start + 1, end - start - 2).toString('utf8');
}

/** The members of the object `json` holds, in order (duplicates included, as they appear). */
export function scanTopLevel(bytes: Uint8Array): TopLevelMember[] {
  const json = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = skipSpace(json, 0);
  if (json[at] !== OPEN_BRACE) throw new MalformedJsonObject(at);
  at = skipSpace(json, at + 1);
  const members: TopLevelMember[] = [];
  if (json[at] === CLOSE_BRACE) return members;
  for (;;) {
    if (json[at] !== QUOTE) throw new MalformedJsonObject(at);
    const start = at;
    const keyEnd = skipString(json, at);
    at = skipSpace(json, keyEnd);
    if (json[at] !== COLON) throw new MalformedJsonObject(at);
    const valueStart = skipSpace(json, at + 1);
    const end = skipValue(json, valueStart);
    members.push({ key: decodeKey(json, start, keyEnd), start, valueStart, end });
    at = skipSpace(json, end);
    if (json[at] === COMMA) {
      at = skipSpace(json, at + 1);
      continue;
    }
    if (json[at] === CLOSE_BRACE) return members;
    throw new MalformedJsonObject(at);
  }
}

/** What to change: members to drop, and members to set to a JSON text (replaced where present, else appended). */
export interface TopLevelEdits {
  remove?: Iterable<string>;
  /** Key → the member's new value as JSON text (e.g. `JSON.stringify(value)`). */
  set?: ReadonlyMap<string, string> | Readonly<Record<string, string>>;
}

const COMMA_BYTES = Buffer.from(',');

/**
 * The object with `edits` applied; every member not named keeps its bytes. A key that occurs more than once counts
 * as its last occurrence (as JSON.parse reads it): a set replaces that one, and the earlier ones are dropped.
 */
export function spliceTopLevel(json: Uint8Array, edits: TopLevelEdits): Buffer {
  const set = edits.set instanceof Map ? edits.set : new Map(Object.entries(edits.set ?? {}));
  const remove = new Set(edits.remove ?? []);
  const members = scanTopLevel(json);
  const last = new Map<string, number>();
  for (const [index, member] of members.entries()) last.set(member.key, index);
  const parts: Uint8Array[] = [Buffer.from('{')];
  let first = true;
  const push = (bytes: Uint8Array) => {
    if (!first) parts.push(COMMA_BYTES);
    parts.push(bytes);
    first = false;
  };
  members.forEach((member, index) => {
    if (remove.has(member.key) && !set.has(member.key)) return;
    const replacement = set.get(member.key);
    if (replacement === undefined && last.get(member.key) !== index) return;
    if (replacement !== undefined) {
      if (last.get(member.key) !== index) return;
      push(Buffer.concat([json.subarray(member.start, member.valueStart), Buffer.from(replacement)]));
      return;
    }
    push(json.subarray(member.start, member.end));
  });
  for (const [key, value] of set) {
    if (!last.has(key)) push(Buffer.from(`${JSON.stringify(key)}:${value}`));
  }
  parts.push(Buffer.from('}'));
  return Buffer.concat(parts);
}
