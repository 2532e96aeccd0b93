// The Messages door's attachments for the prompt estimate (formats/shared/wire-tokens.ts): image and document blocks,
// wherever they sit (a turn, a tool result, a document's content). A `base64` source holds the bytes, priced by their
// size; a `url` or `file` source cannot be read before it is sent (routing/token-estimate/attachment-tokens.ts).
import {
  base64ImageTokens,
  base64PdfTokens,
  PDF_URL_TOKENS,
  UNKNOWN_IMAGE_TOKENS,
} from '../../routing/token-estimate/attachment-tokens.js';
import { type Attachment, isWireNode, type WireNode, wireText } from '../shared/wire-tokens.js';

export function messagesAttachment(node: WireNode): Attachment | undefined {
  const source = node.source;
  if (!isWireNode(source)) return undefined;
  const data = source.type === 'base64' ? wireText(source.data) : undefined;
  if (node.type === 'image')
    return { kind: 'image', tokens: data === undefined ? UNKNOWN_IMAGE_TOKENS : base64ImageTokens(data) };
  // A text or content source is walked as text.
  if (node.type === 'document' && (source.type === 'base64' || source.type === 'url' || source.type === 'file'))
    return { kind: 'file', tokens: data === undefined ? PDF_URL_TOKENS : base64PdfTokens(data) };
  return undefined;
}
