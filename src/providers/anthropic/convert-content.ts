// Gateway content parts → Anthropic content blocks. Anthropic rejects text blocks that are empty or only
// whitespace, so such text is dropped here rather than sent; images become base64 or URL image sources, PDF `file`
// parts document blocks; a part made of a client's own Anthropic block (the Messages door's documents) sends that
// block unchanged (src/core/native-blocks.ts).
import type { ContentPart } from '../../core/chat-types.js';
import { anthropicBlockOf } from '../../core/native-blocks.js';
import { invalidRequest } from './invalid-request.js';
import type { AnthropicCacheControl, AnthropicDocumentBlock, AnthropicImageBlock, AnthropicImageMediaType, AnthropicTextBlock } from './wire-types.js';

/**
 * A part's prompt-caching breakpoint (OpenRouter's `cache_control` on content parts): Anthropic is the provider that
 * takes it, so only this adapter reads it; the others build their parts field by field and drop it.
 */
export function cacheControlOf(part: unknown): AnthropicCacheControl | undefined {
  const value = (part as { cache_control?: unknown } | null)?.cache_control;
  if (typeof value !== 'object' || value === null || typeof (value as { type?: unknown }).type !== 'string') return undefined;
  const { type, ttl } = value as { type: string; ttl?: unknown };
  return typeof ttl === 'string' ? { type, ttl } : { type };
}

function withCacheControl<T extends object>(block: T, part: unknown): T {
  const cacheControl = cacheControlOf(part);
  return cacheControl ? { ...block, cache_control: cacheControl } : block;
}

/** The image types Anthropic accepts (vision docs); anything else is a 400 before we call out. */
const MEDIA_TYPES: ReadonlySet<string> = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

// data:<media type>[;params];base64,<data>. `image/jpg` is common in the wild and means image/jpeg.
const DATA_URL = /^data:([^;,]+)((?:;[^;,]*)*),(.*)$/s;

function imageBlock(url: string, field: string): AnthropicImageBlock {
  const data = DATA_URL.exec(url);
  if (data) {
    const mediaType = data[1].trim().toLowerCase().replace(/^image\/jpg$/, 'image/jpeg');
    if (!MEDIA_TYPES.has(mediaType)) {
      throw invalidRequest(`image media type "${mediaType}" is not supported by Anthropic (use jpeg, png, gif or webp)`, field, 'unsupported_image_type');
    }
    if (!data[2].split(';').includes('base64')) {
      throw invalidRequest('image data URLs must be base64-encoded', field, 'invalid_image_url');
    }
    return { type: 'image', source: { type: 'base64', media_type: mediaType as AnthropicImageMediaType, data: data[3] } };
  }
  if (/^https?:\/\//i.test(url)) return { type: 'image', source: { type: 'url', url } };
  throw invalidRequest('image URLs must be https:// URLs or base64 data URLs', field, 'invalid_image_url');
}

const PDF_DATA_URL = 'data:application/pdf;base64,';

function documentSource(fileData: string, field: string): AnthropicDocumentBlock['source'] {
  if (fileData.startsWith(PDF_DATA_URL)) return { type: 'base64', media_type: 'application/pdf', data: fileData.slice(PDF_DATA_URL.length) };
  if (/^https:\/\//i.test(fileData)) return { type: 'url', url: fileData };
  throw invalidRequest('file_data must be a base64 PDF data URL or an https:// URL', field, 'invalid_file_data');
}

function documentBlock(file: { filename?: string; file_data: string }, field: string): AnthropicDocumentBlock {
  const block: AnthropicDocumentBlock = { type: 'document', source: documentSource(file.file_data, field) };
  if (file.filename) block.title = file.filename;
  return block;
}

type UserBlock = AnthropicTextBlock | AnthropicImageBlock | AnthropicDocumentBlock;

/** True for text Anthropic accepts in a text block (it must contain something besides whitespace). */
export function hasText(text: string): boolean {
  return text.trim() !== '';
}

/** User content → text and image blocks, in order, without blank text. */
export function userBlocks(content: string | ContentPart[], field: string): UserBlock[] {
  if (typeof content === 'string') return hasText(content) ? [{ type: 'text', text: content }] : [];
  const blocks: UserBlock[] = [];
  content.forEach((part, i) => {
    const native = anthropicBlockOf(part);
    if (native !== undefined) {
      if (native !== null) blocks.push(native as UserBlock); // null: covered by the block of an earlier part
    } else if (part.type === 'image_url') blocks.push(withCacheControl(imageBlock(part.image_url.url, `${field}[${i}].image_url.url`), part));
    else if (part.type === 'file') blocks.push(withCacheControl(documentBlock(part.file, `${field}[${i}].file.file_data`), part));
    else if (hasText(part.text)) blocks.push(withCacheControl<AnthropicTextBlock>({ type: 'text', text: part.text }, part));
  });
  return blocks;
}

/** Text-only content (system, developer, assistant) → text blocks without blank ones. */
export function textBlocks(content: string | Array<{ text: string }> | null | undefined): AnthropicTextBlock[] {
  if (content === null || content === undefined) return [];
  if (typeof content === 'string') return hasText(content) ? [{ type: 'text', text: content }] : [];
  return content.filter((part) => hasText(part.text)).map((part) => withCacheControl<AnthropicTextBlock>({ type: 'text', text: part.text }, part));
}

/** Tool results travel as one string; text parts are joined as the gateway spec says. */
export function joinText(content: string | Array<{ text: string }>): string {
  return typeof content === 'string' ? content : content.map((part) => part.text).join('');
}
