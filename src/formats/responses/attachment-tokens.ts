// The Responses door's attachments for the prompt estimate (formats/shared/wire-tokens.ts): `input_image` and
// `input_file` parts, and the chat parts (`image_url`, `file`) that replays of chat items may hold, priced from their
// data URLs or as the largest image or PDF a URL may be (routing/token-estimate/attachment-tokens.ts).
import { imageTokens, PDF_URL_TOKENS, pdfTokens } from '../../routing/token-estimate/attachment-tokens.js';
import { type Attachment, isWireNode, type WireNode, wireText } from '../shared/wire-tokens.js';

export function responsesAttachment(node: WireNode): Attachment | undefined {
  switch (node.type) {
    case 'input_image':
      return { kind: 'image', tokens: imageTokens(wireText(node.image_url) ?? '') };
    case 'input_file': {
      const data = wireText(node.file_data);
      return { kind: 'file', tokens: data === undefined ? PDF_URL_TOKENS : pdfTokens(data) };
    }
    case 'image_url': {
      const image = node.image_url;
      return { kind: 'image', tokens: imageTokens(wireText(isWireNode(image) ? image.url : image) ?? '') };
    }
    case 'file': {
      const file = node.file;
      if (!isWireNode(file)) return undefined;
      return { kind: 'file', tokens: pdfTokens(wireText(file.file_data) ?? '') };
    }
    default:
      return undefined;
  }
}
