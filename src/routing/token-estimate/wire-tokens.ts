// The prompt estimate of a door's wire body, for the Messages, Responses and Gemini doors: a walk over the parsed JSON that
// counts every text value by its length (~4 characters a token, as estimate-tokens.ts) and every attachment by its
// size (attachment-tokens.ts), without translating anything. Object keys count as text too: in tool schemas they are
// what the model reads. Unknown block and item types cost their text, so a type the gateway does not model is priced
// like any other content. Generous on purpose: it is an admission bound (context check, credit reservation).
import {
  base64ImageTokens,
  base64PdfTokens,
  imageTokens,
  pdfTokens,
  PDF_URL_TOKENS,
  UNKNOWN_IMAGE_TOKENS,
} from './attachment-tokens.js';
import { estimateTokensForChars } from './estimate-tokens.js';

export interface WireTokens {
  /** Text tokens plus attachment tokens (no per-message overhead: the door adds its own). */
  tokens: number;
  /** An image anywhere (a part, a block, inside a tool result or a document). */
  images: boolean;
  /** A PDF document anywhere. */
  files: boolean;
}

type Node = Record<string, unknown>;

const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** A Gemini part's media (`inlineData` bytes or a `fileData` URI): an image, a PDF, or another type (its text). */
function geminiMedia(node: Node, found: { images: boolean; files: boolean }): number | undefined {
  const inline = node.inlineData;
  const file = node.fileData;
  const media = isNode(inline) ? inline : isNode(file) ? file : undefined;
  if (!media) return undefined;
  const type = (text(media.mimeType) ?? '').toLowerCase();
  const uri = text(media.fileUri) ?? '';
  const data = text(media.data);
  if (type.startsWith('image/') || (!type && /\.(png|jpe?g|gif|webp|heic|heif)$/i.test(uri))) {
    found.images = true;
    return data === undefined ? UNKNOWN_IMAGE_TOKENS : base64ImageTokens(data);
  }
  if (type === 'application/pdf' || (!type && /\.pdf$/i.test(uri))) {
    found.files = true;
    return data === undefined ? PDF_URL_TOKENS : base64PdfTokens(data);
  }
  return undefined; // text/*, audio, video: walked as text (generous)
}

/** Tokens of an attachment node (its payload never counts as text), or undefined when `node` is no attachment. */
function attachment(node: Node, found: { images: boolean; files: boolean }): number | undefined {
  if (node.type === undefined) return geminiMedia(node, found);
  switch (node.type) {
    // Chat parts (the chat door's own estimate reads them too; they may appear in Responses replays of chat items).
    case 'image_url': {
      const image = node.image_url;
      found.images = true;
      return imageTokens(text(isNode(image) ? image.url : image) ?? '');
    }
    case 'input_image':
      found.images = true;
      return imageTokens(text(node.image_url) ?? '');
    case 'input_file': {
      found.files = true;
      const data = text(node.file_data);
      return data === undefined ? PDF_URL_TOKENS : pdfTokens(data);
    }
    case 'file': {
      const file = node.file;
      if (!isNode(file)) return undefined;
      found.files = true;
      return pdfTokens(text(file.file_data) ?? '');
    }
    // Messages blocks: a `base64` source holds the bytes, a `url` or `file` source cannot be read before it is sent.
    case 'image': {
      const source = node.source;
      if (!isNode(source)) return undefined;
      found.images = true;
      const data = source.type === 'base64' ? text(source.data) : undefined;
      return data === undefined ? UNKNOWN_IMAGE_TOKENS : base64ImageTokens(data);
    }
    case 'document': {
      const source = node.source;
      if (!isNode(source) || (source.type !== 'base64' && source.type !== 'url' && source.type !== 'file'))
        return undefined; // text, content: walked
      found.files = true;
      const data = source.type === 'base64' ? text(source.data) : undefined;
      return data === undefined ? PDF_URL_TOKENS : base64PdfTokens(data);
    }
    default:
      return undefined;
  }
}

/** Walks `value` iteratively (a deep body cannot overflow the stack; the body reader bounds its depth anyway). */
export function wireTokens(value: unknown): WireTokens {
  const found = { images: false, files: false };
  let chars = 0;
  let attachments = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node === 'string') {
      chars += node.length;
    } else if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) stack.push(node[i]);
    } else if (isNode(node)) {
      const tokens = attachment(node, found);
      if (tokens !== undefined) {
        attachments += tokens;
        continue;
      }
      for (const key in node) {
        chars += key.length;
        stack.push(node[key]);
      }
    }
  }
  return { tokens: estimateTokensForChars(chars) + attachments, ...found };
}
