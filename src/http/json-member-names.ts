// Duplicate member names in a JSON body. JSON.parse keeps the last of `{"n":1,"n":2}`, but the native lanes forward the
// client's bytes as they came, and the upstream may read the first copy: the gateway would have checked (and priced)
// one request and sent another. The body reader refuses such bodies (docs/limits-and-hardening.md).
//
// The common path only counts: a valid JSON text's member names are exactly its strings followed by a colon, and the
// parsed value holds one key per distinct name (json-depth.ts counts them), so the two counts agree only when no
// object repeats a name. Finding which name repeats (a full tokenizer) runs only for a body already refused.

/** How many object members `text` (valid JSON, as JSON.parse accepted it) writes, duplicates included. */
export function countMemberNames(text: string): number {
  const counted = countByColons(text);
  return counted >= 0 ? counted : countByStrings(text);
}

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/**
 * Counts the colons that end a member name, visiting colons only: an agent's request holds far more quotes than
 * colons, most of them escaped inside code, so this is cheaper than visiting every string. A colon ends a name
 * when, past whitespace, an unescaped quote precedes it that closes a string. A quote opens a string only right after
 * whitespace, `:`, `,`, `[`, `{` or at the start; a quote right after one of those (or after `"`) could be either, and
 * then the answer is -1: count by strings instead. Real requests almost never get there (a name ending in one of
 * those characters, an empty name, a string value starting with `:`).
 */
function countByColons(text: string): number {
  let count = 0;
  for (let colon = text.indexOf(':'); colon !== -1; colon = text.indexOf(':', colon + 1)) {
    let quote = colon - 1;
    while (isSpace(text.charCodeAt(quote))) quote--;
    if (text.charCodeAt(quote) !== 0x22 || escaped(text, quote)) continue;
    const before = text.charCodeAt(quote - 1);
    if (
      quote === 0 ||
      isSpace(before) ||
      before === 0x3a ||
      before === 0x2c ||
      before === 0x5b ||
      before === 0x7b ||
      before === 0x22
    )
      return -1;
    count++;
  }
  return count;
}

/** Counts the strings followed by a colon, visiting every string (every quote, escaped ones included). */
function countByStrings(text: string): number {
  let count = 0;
  let open = text.indexOf('"');
  while (open !== -1) {
    const close = closingQuote(text, open);
    let next = close + 1;
    while (isSpace(text.charCodeAt(next))) next++;
    if (text.charCodeAt(next) === 0x3a) count++;
    open = text.indexOf('"', next);
  }
  return count;
}

/** A member name written twice in one object, and where: `field` is the member's path (`tools[0].max_uses`). */
export interface DuplicateMember {
  name: string;
  field: string;
}

interface Frame {
  /** Names seen so far; absent for an array. */
  names?: Set<string>;
  /** The member being read (objects) or the element's index (arrays): the next frame's place in its parent. */
  key: string;
  index: number;
}

/** The first repeated member name of `text` (valid JSON) in document order, or undefined when there is none. */
export function firstDuplicateMember(text: string): DuplicateMember | undefined {
  const frames: Frame[] = [];
  for (let at = 0; at < text.length; at++) {
    const c = text.charCodeAt(at);
    const top = frames[frames.length - 1];
    if (c === 0x22) {
      const close = closingQuote(text, at);
      let next = close + 1;
      while (/\s/.test(text[next] ?? '')) next++;
      if (text[next] === ':' && top?.names) {
        const name = JSON.parse(text.slice(at, close + 1)) as string;
        if (top.names.has(name)) return { name, field: pathOf(frames, name) };
        top.names.add(name);
        top.key = name;
      }
      at = close;
    } else if (c === 0x7b) {
      frames.push({ names: new Set(), key: '', index: 0 });
    } else if (c === 0x5b) {
      frames.push({ key: '', index: 0 });
    } else if (c === 0x7d || c === 0x5d) {
      frames.pop();
    } else if (c === 0x2c && top && !top.names) {
      top.index++;
    }
  }
  return undefined;
}

/** The index of the quote closing the string opened at `open` (one not escaped by an odd run of backslashes). */
function closingQuote(text: string, open: number): number {
  let close = text.indexOf('"', open + 1);
  while (close !== -1 && escaped(text, close)) close = text.indexOf('"', close + 1);
  return close === -1 ? text.length : close;
}

function escaped(text: string, quote: number): boolean {
  let backslashes = 0;
  for (let i = quote - 1; text.charCodeAt(i) === 0x5c; i--) backslashes++;
  return (backslashes & 1) === 1;
}

const PLAIN_NAME = /^[A-Za-z_$][\w$]*$/;

/** `messages[2].content`, as validation errors name fields (validation-errors.ts). */
function pathOf(frames: readonly Frame[], name: string): string {
  let path = '';
  for (let i = 1; i < frames.length; i++) path += step(frames[i - 1]!, path === '');
  return path + member(name, path === '');
}

function step(parent: Frame, first: boolean): string {
  return parent.names ? member(parent.key, first) : `[${parent.index}]`;
}

function member(name: string, first: boolean): string {
  if (!PLAIN_NAME.test(name)) return `[${JSON.stringify(name)}]`;
  return first ? name : `.${name}`;
}
