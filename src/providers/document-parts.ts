// A document block for a vendor that has no documents (the OpenAI-compatible chat format, Gemini): a PDF (inline or
// by URL) becomes one PDF part, preceded by a text with the context when there is one; plain text and content blocks
// become text (and image) parts headed by the title and the context, since a chat model has no document structure to
// put them in. Anthropic takes documents as they are and never calls this.
import type { DocumentBlock, ImageBlock, MediaSource, TextBlock } from '../core/content-blocks.js';

/** A PDF to attach as a file: its bytes or URL, and the name it goes by. */
export interface PdfPart {
  type: 'pdf';
  source: MediaSource;
  filename: string;
  cache?: TextBlock['cache'];
}

export type DocumentPart = TextBlock | ImageBlock | PdfPart;

const DEFAULT_FILENAME = 'document.pdf';

/** Title and context as the header of a document given to a model as text. */
function header(block: DocumentBlock): string {
  const lines: string[] = [];
  if (block.title) lines.push(`Document: ${block.title}`);
  if (block.context) lines.push(`Context: ${block.context}`);
  return lines.length === 0 ? '' : `${lines.join('\n')}\n\n`;
}

function text(value: string): TextBlock {
  return { type: 'text', text: value };
}

function contentParts(block: DocumentBlock, blocks: ReadonlyArray<TextBlock | ImageBlock>): DocumentPart[] {
  const parts: DocumentPart[] = [];
  let pending = header(block);
  for (const inner of blocks) {
    if (inner.type === 'text') {
      pending += (pending === '' || pending.endsWith('\n\n') ? '' : '\n\n') + inner.text;
      continue;
    }
    if (pending !== '') parts.push(text(pending));
    pending = '';
    parts.push({ type: 'image', source: inner.source, ...(inner.detail ? { detail: inner.detail } : {}) });
  }
  if (pending !== '' || parts.length === 0) parts.push(text(pending));
  return parts;
}

export function documentParts(block: DocumentBlock): DocumentPart[] {
  const source = block.source;
  switch (source.kind) {
    case 'text':
      return [text(header(block) + source.text)];
    case 'blocks':
      return contentParts(block, source.blocks);
    default: {
      const parts: DocumentPart[] = [];
      if (block.context) parts.push(text(`Context: ${block.context}`));
      const pdf: PdfPart = { type: 'pdf', source, filename: block.title || DEFAULT_FILENAME };
      if (block.cache) pdf.cache = block.cache;
      parts.push(pdf);
      return parts;
    }
  }
}

/** A source as one URL: a base64 data URL for inline bytes; undefined for an uploaded file's id. */
export function sourceUrl(source: MediaSource): string | undefined {
  if (source.kind === 'base64') return `data:${source.mediaType};base64,${source.data}`;
  if (source.kind === 'url') return source.url;
  return undefined;
}
