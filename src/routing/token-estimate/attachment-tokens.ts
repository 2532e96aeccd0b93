// Prompt tokens of an image or PDF part, bounded from above from the attachment itself, for the admission bound (a
// credit reservation, a context-window check) before anything is sent upstream. One bound serves every provider,
// since a routed request may be served by any of its endpoints: it is the largest of the vendors' documented counts.
//
// Images, from their width and height (read from the header bytes of a data URL), the largest of:
// - Anthropic: width × height / 750 after scaling the long edge to at most 2576 px, at most 4,784 a picture (the
//   limits of the newer Claude models; older ones scale to 1568 px, ~1,600 tokens, so this is above them too);
// - OpenAI, high detail: fit in 2048 × 2048, shortest side at most 768, then 85 + 170 per 512-px tile; and the
//   patch-counted models (mini, nano): 32-px patches, at most 1,536, times the largest multiplier (nano: 2.46);
// - Gemini: 1,120 an image at Gemini 3's default media resolution (high); Gemini 2: 258 for an image of at most
//   384 × 384 px, else 258 per 768-px tile of the image as sent.
// An image whose size cannot be read (an https URL, a format or header the reader does not know) counts as the
// largest image Anthropic accepts, 8000 × 8000 px: 31,218 tokens, where Gemini 2's tiles are the largest count.
//
// PDFs: every provider reads each page as text plus an image of the page; Anthropic documents 1,500–3,000 tokens a
// page, the most of the three, so a page counts 3,000. The pages are counted from the file (pdf-pages.ts). A PDF
// whose pages cannot be counted (encrypted or damaged: providers mostly refuse those) counts a token per byte:
// Flate-compressed text takes about a byte a token, and embedded images make a file larger without adding more than
// the page image. A PDF by URL cannot be read before it is sent: it counts as 100 pages, the most Anthropic takes in
// one request on 200K-context models.
import { readImageSize, type ImageSize } from './image-dimensions.js';
import { countPdfPages } from './pdf-pages.js';

export const PDF_PAGE_TOKENS = 3_000;
export const PDF_URL_PAGES = 100;
const UNKNOWN_IMAGE: ImageSize = { width: 8000, height: 8000 };
/** Base64 characters decoded first (48 KiB, a multiple of 4 characters); a JPEG's frame header may follow larger
 *  EXIF or ICC segments, and then the whole image is decoded. */
const IMAGE_HEADER_CHARS = 64 * 1024;
/** Edges beyond this are clamped, so that a forged header keeps the sum a safe integer (it is refused anyway). */
const MAX_EDGE = 100_000;

export function anthropicImageTokens({ width, height }: ImageSize): number {
  const scale = Math.min(1, 2576 / Math.max(width, height));
  return Math.min(4_784, Math.ceil((width * scale * (height * scale)) / 750));
}

export function openAiImageTokens({ width, height }: ImageSize): number {
  const fit = Math.min(1, 2048 / Math.max(width, height));
  const short = Math.min(1, 768 / Math.min(width * fit, height * fit));
  const tiles = Math.ceil((width * fit * short) / 512) * Math.ceil((height * fit * short) / 512);
  const patches = Math.min(1_536, Math.ceil(width / 32) * Math.ceil(height / 32));
  return Math.max(85 + 170 * tiles, Math.ceil(patches * 2.46));
}

export function geminiImageTokens({ width, height }: ImageSize): number {
  const tiles = width <= 384 && height <= 384 ? 1 : Math.ceil(width / 768) * Math.ceil(height / 768);
  return Math.max(1_120, 258 * tiles);
}

export function imageTokensForSize(size: ImageSize): number {
  const clamped = { width: Math.min(size.width, MAX_EDGE), height: Math.min(size.height, MAX_EDGE) };
  return Math.max(anthropicImageTokens(clamped), openAiImageTokens(clamped), geminiImageTokens(clamped));
}

export const UNKNOWN_IMAGE_TOKENS = imageTokensForSize(UNKNOWN_IMAGE);

/** The base64 payload of a data URL, or undefined for anything else (an https URL). */
function base64Payload(url: string): string | undefined {
  if (!/^data:/i.test(url)) return undefined;
  const comma = url.indexOf(',');
  return comma < 0 || !/;base64$/i.test(url.slice(0, comma)) ? undefined : url.slice(comma + 1);
}

/** An `image_url` part's URL → its tokens. */
export function imageTokens(url: string): number {
  const payload = base64Payload(url.trim());
  return payload === undefined ? UNKNOWN_IMAGE_TOKENS : base64ImageTokens(payload);
}

/** An image's base64 bytes (a Messages `base64` source's `data`) → its tokens. */
export function base64ImageTokens(payload: string): number {
  // Base64 decodes 4 characters to 3 bytes: a prefix of a multiple of 4 characters decodes on its own.
  const prefix = payload.length > IMAGE_HEADER_CHARS ? payload.slice(0, IMAGE_HEADER_CHARS) : payload;
  const size =
    readImageSize(Buffer.from(prefix, 'base64')) ??
    (prefix === payload ? undefined : readImageSize(Buffer.from(payload, 'base64')));
  return size ? imageTokensForSize(size) : UNKNOWN_IMAGE_TOKENS;
}

/** A `file` part's data (a PDF data URL, or a URL the Messages door passed on) → its tokens. */
export function pdfTokens(fileData: string): number {
  const payload = base64Payload(fileData.trim());
  return payload === undefined ? PDF_URL_TOKENS : base64PdfTokens(payload);
}

/** A PDF by URL (or by a file id of the vendor's): its pages cannot be counted before it is sent. */
export const PDF_URL_TOKENS = PDF_URL_PAGES * PDF_PAGE_TOKENS;

/** A PDF's base64 bytes → its tokens. */
export function base64PdfTokens(payload: string): number {
  const pdf = Buffer.from(payload, 'base64');
  const pages = countPdfPages(pdf);
  return pages === undefined ? pdf.length : pages * PDF_PAGE_TOKENS;
}
