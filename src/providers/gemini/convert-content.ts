// Gateway user content → Gemini parts: text, inline images and PDFs (`data:` URLs → inlineData) and image and PDF
// URLs (http(s) → fileData, which the Gemini API fetches itself). Empty text is left out: Gemini answers 400
// ("empty text parameter") to a part with no text.
import type { ContentPart } from '../../core/chat-types.js';
import { GatewayError } from '../../core/gateway-error.js';

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
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw invalidImage(`unsupported scheme ${parsed.protocol}`);
  const extension = /\.([a-z0-9]+)$/i.exec(parsed.pathname)?.[1]?.toLowerCase();
  const mimeType = extension ? IMAGE_TYPES[extension] : undefined;
  return { fileData: mimeType ? { mimeType, fileUri: url } : { fileUri: url } };
}

/** A PDF `file` part: inline data, or a URL the Gemini API fetches itself (fileData, as for image URLs). */
function pdfPart(fileData: string): GeminiPart {
  const data = fileData.trim();
  if (/^data:application\/pdf;base64,/i.test(data)) return { inlineData: { mimeType: 'application/pdf', data: data.slice(data.indexOf(',') + 1).replace(/\s+/g, '') } };
  if (/^https:\/\//i.test(data)) return { fileData: { mimeType: 'application/pdf', fileUri: data } };
  throw new GatewayError(400, 'Invalid file: file_data must be a base64 PDF data URL or an https:// URL', { reason: 'invalid_file_data', field: 'messages' });
}

export function convertUserPart(part: ContentPart): GeminiPart | undefined {
  if (part.type === 'image_url') {
    const url = part.image_url.url.trim();
    return /^data:/i.test(url) ? inlineImage(url) : remoteImage(url);
  }
  if (part.type === 'file') return pdfPart(part.file.file_data);
  return part.text === '' ? undefined : { text: part.text };
}

export function convertUserContent(content: string | ContentPart[]): GeminiPart[] {
  if (typeof content === 'string') return content === '' ? [] : [{ text: content }];
  return content.map(convertUserPart).filter((p): p is GeminiPart => p !== undefined);
}

/** Text-only content (system, assistant, tool) as one string; parts are joined as the spec says. */
export function joinText(content: string | Array<{ text: string }> | null | undefined, separator = ''): string {
  if (content === null || content === undefined) return '';
  return typeof content === 'string' ? content : content.map((part) => part.text).join(separator);
}
