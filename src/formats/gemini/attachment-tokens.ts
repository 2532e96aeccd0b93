// The Gemini door's attachments for the prompt estimate (formats/shared/wire-tokens.ts): a part's media, `inlineData`
// bytes priced by their size, a `fileData` URI as the largest image or PDF it may be
// (routing/token-estimate/attachment-tokens.ts).
import {
  base64ImageTokens,
  base64PdfTokens,
  PDF_URL_TOKENS,
  UNKNOWN_IMAGE_TOKENS,
} from '../../routing/token-estimate/attachment-tokens.js';
import { type Attachment, isWireNode, type WireNode, wireText } from '../shared/wire-tokens.js';

/** An image, a PDF, or undefined for another type (text/*, audio, video: walked as text, generous). */
export function geminiAttachment(node: WireNode): Attachment | undefined {
  if (node.type !== undefined) return undefined; // parts have no `type`: a schema or an unknown object, walked
  const inline = node.inlineData;
  const file = node.fileData;
  const media = isWireNode(inline) ? inline : isWireNode(file) ? file : undefined;
  if (!media) return undefined;
  const type = (wireText(media.mimeType) ?? '').toLowerCase();
  const uri = wireText(media.fileUri) ?? '';
  const data = wireText(media.data);
  if (type.startsWith('image/') || (!type && /\.(png|jpe?g|gif|webp|heic|heif)$/i.test(uri)))
    return { kind: 'image', tokens: data === undefined ? UNKNOWN_IMAGE_TOKENS : base64ImageTokens(data) };
  if (type === 'application/pdf' || (!type && /\.pdf$/i.test(uri)))
    return { kind: 'file', tokens: data === undefined ? PDF_URL_TOKENS : base64PdfTokens(data) };
  return undefined;
}
