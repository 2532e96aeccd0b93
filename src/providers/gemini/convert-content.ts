// Internal user content → Gemini parts: text, inline images and PDFs (base64 or `data:` URLs → inlineData), image
// and PDF URLs (http(s) → fileData, which the Gemini API fetches itself), documents as text and PDF parts
// (document-parts.ts). Empty text is left out: Gemini answers 400 ("empty text parameter") to a part with no text.
import type { ImageBlock, MediaSource, UserBlock } from '../../core/content-blocks.js';
import { GatewayError } from '../../core/gateway-error.js';
import { documentParts } from '../document-parts.js';

export type GeminiPart = Record<string, unknown>;

/** Media types by file extension, for `fileData.mimeType` (optional on the Gemini API, so unknown → omitted). */
const IMAGE_TYPES: Readonly<Record<string, string>> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  heic: 'image/heic',
  heif: 'image/heif',
};

function invalidImage(detail: string): GatewayError {
  return new GatewayError(400, `Invalid image_url: ${detail}`, { reason: 'invalid_image_url', field: 'messages' });
}

/** `data:<media>[;params][;base64],<data>` → inlineData; non-base64 payloads are percent-decoded and re-encoded. */
function inlineImage(url: string): GeminiPart {
  const comma = url.indexOf(',');
  if (comma < 0) throw invalidImage('a data URL needs a comma before its data');
  const header = url.slice(5, comma).split(';');
  const mimeType = header[0].trim().toLowerCase() || 'text/plain';
  const payload = url.slice(comma + 1);
  let data: string;
  if (header.slice(1).some((p) => p.trim().toLowerCase() === 'base64')) {
    data = payload.replace(/\s+/g, '');
  } else {
    try {
      data = Buffer.from(decodeURIComponent(payload), 'utf8').toString('base64');
    } catch {
      throw invalidImage('the data URL is not valid percent-encoding');
    }
  }
  return { inlineData: { mimeType, data } };
}

function remoteImage(url: string): GeminiPart {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalidImage('not a URL');
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
    throw invalidImage(`unsupported scheme ${parsed.protocol}`);
  const extension = /\.([a-z0-9]+)$/i.exec(parsed.pathname)?.[1]?.toLowerCase();
  const mimeType = extension ? IMAGE_TYPES[extension] : undefined;
  return { fileData: mimeType ? { mimeType, fileUri: url } : { fileUri: url } };
}

const INVALID_FILE = 'Invalid file: file_data must be a base64 PDF data URL or an https:// URL';

/** A PDF: inline data, or a URL the Gemini API fetches itself (fileData, as for image URLs). */
function pdfPart(source: MediaSource): GeminiPart {
  if (source.kind === 'base64')
    return { inlineData: { mimeType: 'application/pdf', data: source.data.replace(/\s+/g, '') } };
  if (source.kind === 'file')
    throw new GatewayError(400, INVALID_FILE, { reason: 'invalid_file_data', field: 'messages' });
  const data = source.url.trim();
  if (/^data:application\/pdf;base64,/i.test(data))
    return { inlineData: { mimeType: 'application/pdf', data: data.slice(data.indexOf(',') + 1).replace(/\s+/g, '') } };
  if (/^https:\/\//i.test(data)) return { fileData: { mimeType: 'application/pdf', fileUri: data } };
  throw new GatewayError(400, INVALID_FILE, { reason: 'invalid_file_data', field: 'messages' });
}

function imagePart(block: ImageBlock): GeminiPart {
  const source = block.source;
  if (source.kind === 'base64')
    return {
      inlineData: {
        mimeType: source.mediaType.trim().toLowerCase() || 'text/plain',
        data: source.data.replace(/\s+/g, ''),
      },
    };
  if (source.kind === 'file')
    throw invalidImage('an uploaded file id cannot be read here; send the image inline or by URL');
  const url = source.url.trim();
  return /^data:/i.test(url) ? inlineImage(url) : remoteImage(url);
}

function text(value: string): GeminiPart[] {
  return value === '' ? [] : [{ text: value }];
}

/** User blocks other than tool results (those are function responses) → parts, in order. */
export function convertUserBlocks(blocks: readonly UserBlock[]): GeminiPart[] {
  return blocks.flatMap((block): GeminiPart[] => {
    switch (block.type) {
      case 'text':
        return text(block.text);
      case 'image':
        return [imagePart(block)];
      case 'document':
        return documentParts(block).flatMap((part) =>
          part.type === 'text' ? text(part.text) : part.type === 'image' ? [imagePart(part)] : [pdfPart(part.source)],
        );
      default:
        return [];
    }
  });
}
