// Messages content blocks → internal blocks: text (cache_control → breakpoint), images (base64 or URL sources) and
// documents (PDF by base64 or URL, plain text, or content blocks; title, context and citations kept), as the
// Messages spec defines them (spec/messages/models.tsp). A block the translated lane cannot carry is a 400.
import type { CacheBreakpoint, DocumentBlock, ImageBlock, TextBlock } from '../../core/content-blocks.js';
import { GatewayError } from '../../core/gateway-error.js';
import type { MessagesDocumentBlock, MessagesImageBlock, MessagesTextBlock } from './wire-types.js';

export function invalidRequest(message: string, field: string): GatewayError {
  return new GatewayError(400, message, { field, reason: 'invalid_request' });
}

/** `cache_control` ({type: "ephemeral", ttl?}) → a breakpoint. */
export function cacheOf(block: { cache_control?: unknown }): CacheBreakpoint | undefined {
  const value = block.cache_control;
  if (typeof value !== 'object' || value === null) return undefined;
  const ttl = (value as { ttl?: unknown }).ttl;
  return typeof ttl === 'string' ? { ttl } : {};
}

function withCache<T extends { cache?: CacheBreakpoint }>(out: T, block: { cache_control?: unknown }): T {
  const cache = cacheOf(block);
  if (cache) out.cache = cache;
  return out;
}

export function textBlock(block: MessagesTextBlock): TextBlock {
  return withCache<TextBlock>({ type: 'text', text: block.text }, block);
}

/** The sources as the schema defines them (the generated union types do not narrow on `type`). */
type ImageSource =
  | { type: 'base64'; media_type: string; data: string }
  | { type: 'url'; url: string }
  | { type: 'file'; file_id: string };

export function imageBlock(block: MessagesImageBlock, field: string): ImageBlock {
  const source = block.source as unknown as ImageSource;
  switch (source.type) {
    case 'base64':
      return withCache<ImageBlock>(
        { type: 'image', source: { kind: 'base64', mediaType: source.media_type, data: source.data } },
        block,
      );
    case 'url':
      return withCache<ImageBlock>({ type: 'image', source: { kind: 'url', url: source.url } }, block);
    default:
      throw invalidRequest(`${field}.source.type must be "base64" or "url"`, `${field}.source.type`);
  }
}

type DocumentSource =
  | { type: 'base64'; media_type: string; data: string }
  | { type: 'url'; url: string }
  | { type: 'text'; data: string }
  | { type: 'content'; content: string | Array<MessagesTextBlock | MessagesImageBlock> };

function documentSource(source: DocumentSource, field: string): DocumentBlock['source'] {
  switch (source.type) {
    case 'base64':
      if (source.media_type !== 'application/pdf') {
        throw invalidRequest(
          `${field}.source: a base64 document must be a PDF (media_type "application/pdf")`,
          `${field}.source.media_type`,
        );
      }
      return { kind: 'base64', mediaType: source.media_type, data: source.data };
    case 'url':
      return { kind: 'url', url: source.url };
    case 'text':
      return { kind: 'text', text: source.data };
    case 'content': {
      const content = source.content;
      if (typeof content === 'string') return { kind: 'blocks', blocks: [{ type: 'text', text: content }] };
      return {
        kind: 'blocks',
        blocks: content.map((inner, i) =>
          inner.type === 'text' ? textBlock(inner) : imageBlock(inner, `${field}.source.content[${i}]`),
        ),
      };
    }
    default: {
      // openapi-backend admits only the schema's sources; this guards callers that bypass it (conformance, tests).
      const type = (source as { type?: unknown }).type;
      throw invalidRequest(
        `${field}.source.type "${String(type)}" is not supported (use base64, url, text or content; the Files API is not available here)`,
        `${field}.source.type`,
      );
    }
  }
}

export function documentBlock(block: MessagesDocumentBlock, field: string): DocumentBlock {
  const out: DocumentBlock = {
    type: 'document',
    source: documentSource(block.source as unknown as DocumentSource, field),
  };
  if (block.title) out.title = block.title;
  if (block.context) out.context = block.context;
  if (block.citations?.enabled === true) out.citations = true;
  return withCache(out, block);
}
