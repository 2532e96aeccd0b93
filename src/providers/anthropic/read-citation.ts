// An Anthropic citation (char_location, page_location, content_block_location, web_search_result_location, ...) →
// the gateway's Citation: its type and quoted text apart, every other field as the vendor gave it, so a citation the
// gateway does not know in detail still travels whole.
import type { Citation } from '../../core/content-blocks.js';
import { readRecord, readString } from '../payload-readers.js';

export function citationOf(raw: unknown): Citation | undefined {
  const citation = readRecord(raw);
  const type = readString(citation?.type);
  if (!citation || !type) return undefined;
  const { type: _type, cited_text: citedText, ...fields } = citation;
  return typeof citedText === 'string' ? { type, citedText, fields } : { type, fields };
}
