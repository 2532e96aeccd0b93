// Messages `document` blocks → internal content parts (see MessagesDocumentBlock in spec/messages/models.tsp):
// - a PDF (base64 or URL source) → one `file` part, as OpenAI and OpenRouter take PDFs, preceded by a text part with
//   the context when there is one;
// - plain text and `content` sources → text (and image) parts headed by the title and the context, since a chat
//   model has no document structure to put them in.
// The whole original block rides on the first part for a native Anthropic upstream (src/core/native-blocks.ts), which
// sends it unchanged; the document's other parts are marked as covered by it.
import type { ContentPart } from '../../core/chat-types.js';
import { attachAnthropicBlock } from '../../core/native-blocks.js';
import type { MessagesDocumentBlock, MessagesImageBlock, MessagesTextBlock } from './wire-types.js';

type ImagePartOf = (block: MessagesImageBlock, field: string) => ContentPart;
type InvalidRequest = (message: string, field: string) => Error;

const DEFAULT_FILENAME = 'document.pdf';

/** Title and context as the header of a document given to a model as text. */
function header(block: MessagesDocumentBlock): string {
  const lines: string[] = [];
  if (block.title) lines.push(`Document: ${block.title}`);
  if (block.context) lines.push(`Context: ${block.context}`);
  return lines.length === 0 ? '' : `${lines.join('\n')}\n\n`;
}

function textPart(text: string): ContentPart {
  return { type: 'text', text };
}

function pdfParts(block: MessagesDocumentBlock, fileData: string): ContentPart[] {
  const parts: ContentPart[] = [];
  if (block.context) parts.push(textPart(`Context: ${block.context}`));
  parts.push({ type: 'file', file: { filename: block.title || DEFAULT_FILENAME, file_data: fileData } });
  return parts;
}

function contentParts(block: MessagesDocumentBlock, content: string | Array<MessagesTextBlock | MessagesImageBlock>, field: string, imagePart: ImagePartOf): ContentPart[] {
  if (typeof content === 'string') return [textPart(header(block) + content)];
  const parts: ContentPart[] = [];
  let text = header(block);
  content.forEach((inner, i) => {
    if (inner.type === 'text') {
      text += (text === '' || text.endsWith('\n\n') ? '' : '\n\n') + inner.text;
      return;
    }
    if (text !== '') parts.push(textPart(text));
    text = '';
    parts.push(imagePart(inner, `${field}.source.content[${i}]`));
  });
  if (text !== '' || parts.length === 0) parts.push(textPart(text));
  return parts;
}

/** The sources as the schema defines them (the generated union types do not narrow on `type`). */
type DocumentSource =
  | { type: 'base64'; media_type: string; data: string }
  | { type: 'url'; url: string }
  | { type: 'text'; data: string }
  | { type: 'content'; content: string | Array<MessagesTextBlock | MessagesImageBlock> };

export function documentParts(block: MessagesDocumentBlock, field: string, imagePart: ImagePartOf, invalidRequest: InvalidRequest): ContentPart[] {
  const source = block.source as unknown as DocumentSource;
  let parts: ContentPart[];
  switch (source.type) {
    case 'base64':
      if (source.media_type !== 'application/pdf') {
        throw invalidRequest(`${field}.source: a base64 document must be a PDF (media_type "application/pdf")`, `${field}.source.media_type`);
      }
      parts = pdfParts(block, `data:application/pdf;base64,${source.data}`);
      break;
    case 'url':
      parts = pdfParts(block, source.url);
      break;
    case 'text':
      parts = [textPart(header(block) + source.data)];
      break;
    case 'content':
      parts = contentParts(block, source.content, field, imagePart);
      break;
    default: {
      // openapi-backend admits only the schema's sources; this guards callers that bypass it (conformance, tests).
      const type = (source as { type?: unknown }).type;
      throw invalidRequest(`${field}.source.type "${String(type)}" is not supported (use base64, url, text or content; the Files API is not available here)`, `${field}.source.type`);
    }
  }
  parts.forEach((part, i) => attachAnthropicBlock(part, i === 0 ? block : null));
  return parts;
}
