// Internal content blocks → Anthropic content blocks. Anthropic rejects text blocks that are empty or only
// whitespace, so such text is dropped here rather than sent; images become base64 or URL image sources (a data URL is
// taken apart); documents go as Anthropic's own document blocks, with their title, context, citations and source;
// cache breakpoints become `cache_control` on the block they were set on.
import type { CacheBreakpoint, DocumentBlock, ImageBlock, MediaSource, TextBlock } from '../../core/content-blocks.js';
import { invalidRequest } from './invalid-request.js';
import type {
  AnthropicCacheControl,
  AnthropicDocumentBlock,
  AnthropicImageBlock,
  AnthropicImageMediaType,
  AnthropicTextBlock,
} from './wire-types.js';

export function cacheControl(cache: CacheBreakpoint | undefined): AnthropicCacheControl | undefined {
  if (!cache) return undefined;
  return cache.ttl !== undefined ? { type: 'ephemeral', ttl: cache.ttl } : { type: 'ephemeral' };
}

export function withCache<T extends object>(block: T, cache: CacheBreakpoint | undefined): T {
  const control = cacheControl(cache);
  return control ? { ...block, cache_control: control } : block;
}

/** The image types Anthropic accepts (vision docs); anything else is a 400 before we call out. */
const MEDIA_TYPES: ReadonlySet<string> = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

// data:<media type>[;params];base64,<data>. `image/jpg` is common in the wild and means image/jpeg.
const DATA_URL = /^data:([^;,]+)((?:;[^;,]*)*),(.*)$/s;

function mediaType(value: string, field: string): AnthropicImageMediaType {
  const normalized = value
    .trim()
    .toLowerCase()
    .replace(/^image\/jpg$/, 'image/jpeg');
  if (!MEDIA_TYPES.has(normalized)) {
    throw invalidRequest(
      `image media type "${normalized}" is not supported by Anthropic (use jpeg, png, gif or webp)`,
      field,
      'unsupported_image_type',
    );
  }
  return normalized as AnthropicImageMediaType;
}

function imageSource(source: MediaSource, field: string): AnthropicImageBlock['source'] {
  if (source.kind === 'base64')
    return { type: 'base64', media_type: mediaType(source.mediaType, field), data: source.data };
  if (source.kind === 'file') return { type: 'file', file_id: source.fileId };
  const data = DATA_URL.exec(source.url);
  if (data) {
    const type = mediaType(data[1], field);
    if (!data[2].split(';').includes('base64'))
      throw invalidRequest('image data URLs must be base64-encoded', field, 'invalid_image_url');
    return { type: 'base64', media_type: type, data: data[3] };
  }
  if (/^https?:\/\//i.test(source.url)) return { type: 'url', url: source.url };
  throw invalidRequest('image URLs must be https:// URLs or base64 data URLs', field, 'invalid_image_url');
}

export function imageBlock(block: ImageBlock, field: string): AnthropicImageBlock {
  return withCache<AnthropicImageBlock>({ type: 'image', source: imageSource(block.source, field) }, block.cache);
}

const PDF_DATA_URL = 'data:application/pdf;base64,';

function documentSource(block: DocumentBlock, field: string): AnthropicDocumentBlock['source'] {
  const source = block.source;
  switch (source.kind) {
    case 'base64':
      return { type: 'base64', media_type: source.mediaType, data: source.data };
    case 'file':
      return { type: 'file', file_id: source.fileId };
    case 'text':
      return { type: 'text', media_type: 'text/plain', data: source.text };
    case 'blocks':
      return {
        type: 'content',
        content: source.blocks.map((inner, i) =>
          inner.type === 'text' ? textBlock(inner) : imageBlock(inner, `${field}.source.content[${i}]`),
        ),
      };
    case 'url':
      if (source.url.startsWith(PDF_DATA_URL))
        return { type: 'base64', media_type: 'application/pdf', data: source.url.slice(PDF_DATA_URL.length) };
      if (/^https:\/\//i.test(source.url)) return { type: 'url', url: source.url };
      throw invalidRequest('file_data must be a base64 PDF data URL or an https:// URL', field, 'invalid_file_data');
  }
}

export function documentBlock(block: DocumentBlock, field: string): AnthropicDocumentBlock {
  const out: AnthropicDocumentBlock = { type: 'document', source: documentSource(block, field) };
  if (block.title) out.title = block.title;
  if (block.context) out.context = block.context;
  if (block.citations) out.citations = { enabled: true };
  return withCache(out, block.cache);
}

/** True for text Anthropic accepts in a text block (it must contain something besides whitespace). */
export function hasText(text: string): boolean {
  return text.trim() !== '';
}

export function textBlock(block: TextBlock): AnthropicTextBlock {
  return withCache<AnthropicTextBlock>({ type: 'text', text: block.text }, block.cache);
}

/** Text blocks without blank ones. */
export function textBlocks(blocks: readonly TextBlock[]): AnthropicTextBlock[] {
  return blocks.filter((block) => hasText(block.text)).map(textBlock);
}
