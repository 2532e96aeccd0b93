// A JSON document's bytes with some of its string values replaced, everything else kept byte for byte: the native
// lane forwards the client's own bytes, so a redaction writes anew only the strings it changed. The scanner knows
// the nearest member name of each string (as request-strings.ts reads it); keys themselves are never changed.

/** Replaces string values: `replace` gets the nearest member name and the decoded value; undefined keeps it. */
export function spliceJsonStrings(
  json: string,
  replace: (member: string | undefined, value: string) => string | undefined,
): string {
  // Per open container: the member it sits under, and for objects whether the next string is a key.
  const members: (string | undefined)[] = [];
  const objects: boolean[] = [];
  let expectKey = false;
  let currentKey: string | undefined;
  let out = '';
  let copiedTo = 0;
  let changed = false;
  let i = 0;
  while (i < json.length) {
    const c = json.charCodeAt(i);
    if (c === 0x22 /* " */) {
      const end = stringEnd(json, i);
      const inObject = objects.length > 0 && objects[objects.length - 1];
      if (inObject && expectKey) {
        currentKey = decodeString(json, i, end);
        expectKey = false;
      } else {
        const member = inObject ? currentKey : members[members.length - 1];
        const value = decodeString(json, i, end);
        const replacement = replace(member, value);
        if (replacement !== undefined && replacement !== value) {
          out += json.slice(copiedTo, i) + JSON.stringify(replacement);
          copiedTo = end;
          changed = true;
        }
      }
      i = end;
      continue;
    }
    if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      const inObject = objects.length > 0 && objects[objects.length - 1];
      members.push(inObject ? currentKey : members[members.length - 1]);
      objects.push(c === 0x7b);
      expectKey = c === 0x7b;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      members.pop();
      objects.pop();
      expectKey = false;
    } else if (c === 0x2c /* , */) {
      expectKey = objects.length > 0 && objects[objects.length - 1]!;
    }
    i++;
  }
  return changed ? out + json.slice(copiedTo) : json;
}

/** The string token [start, end) decoded; one without escapes is its text as it stands. */
function decodeString(json: string, start: number, end: number): string {
  const inner = json.slice(start + 1, end - 1);
  return inner.includes('\\') ? (JSON.parse(json.slice(start, end)) as string) : inner;
}

/** The index just past the closing quote of the string starting at `start`. */
function stringEnd(json: string, start: number): number {
  let i = start + 1;
  while (i < json.length) {
    const c = json.charCodeAt(i);
    if (c === 0x5c /* \ */) i += 2;
    else if (c === 0x22) return i + 1;
    else i++;
  }
  return json.length;
}
