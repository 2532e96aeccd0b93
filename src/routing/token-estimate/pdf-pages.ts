// The page count of a PDF, read from its objects without a PDF library: providers bill a PDF by its pages (each page
// is read as text and as an image), so the prompt estimate needs the count, not the file size.
//
// Rule: the largest of (a) the page objects (`/Type /Page`) and (b) the largest `/Count` (the page tree root counts
// every page; outline dictionaries also carry a /Count, which can only raise the figure). Since PDF 1.5 objects may
// sit compressed inside object streams (`/Type /ObjStm`), those streams are inflated (zlib, bounded) and read too.
// A PDF whose pages cannot be found this way (encrypted object streams, a damaged file) gives undefined, and the
// caller falls back to a bound from its size.
import { inflateSync, constants as zlib } from 'node:zlib';

const PAGE_OBJECT = /\/Type\s*\/Page(?![A-Za-z])/g;
const COUNT = /\/Count\s+(\d{1,9})/g;
const OBJECT_STREAM = /\/Type\s*\/ObjStm\b/g;
/** Inflated bytes read per object stream: page dictionaries are small; a stream past this is not a sane one. */
const MAX_INFLATED_BYTES = 16 * 1024 * 1024;
/** Object streams inflated per file, so a crafted file cannot make the estimate itself expensive. */
const MAX_OBJECT_STREAMS = 1000;

export function countPdfPages(pdf: Buffer): number | undefined {
  const text = pdf.toString('latin1');
  let pages = pagesIn(text);
  let streams = 0;
  for (const match of text.matchAll(OBJECT_STREAM)) {
    if (++streams > MAX_OBJECT_STREAMS) break;
    const inflated = inflateObjectStream(pdf, text, match.index);
    if (inflated !== undefined) pages = Math.max(pages, pagesIn(inflated));
  }
  return pages > 0 ? pages : undefined;
}

function pagesIn(text: string): number {
  let objects = 0;
  for (const _ of text.matchAll(PAGE_OBJECT)) objects++;
  let count = 0;
  for (const match of text.matchAll(COUNT)) count = Math.max(count, Number(match[1]));
  return Math.max(objects, count);
}

/** The stream that follows an object stream's dictionary, inflated; undefined when it is not Flate or is damaged. */
function inflateObjectStream(pdf: Buffer, text: string, dictionaryAt: number): string | undefined {
  const keyword = text.indexOf('stream', dictionaryAt);
  if (keyword < 0) return undefined;
  // The keyword is followed by CRLF or LF (ISO 32000-1, 7.3.8.1).
  let start = keyword + 'stream'.length;
  if (text[start] === '\r') start++;
  if (text[start] === '\n') start++;
  const end = text.indexOf('endstream', start);
  if (end < 0) return undefined;
  try {
    // Z_SYNC_FLUSH: a stream cut short still yields what it holds; the end-of-line before `endstream` is ignored.
    return inflateSync(pdf.subarray(start, end), {
      finishFlush: zlib.Z_SYNC_FLUSH,
      maxOutputLength: MAX_INFLATED_BYTES,
    }).toString('latin1');
  } catch {
    return undefined;
  }
}
