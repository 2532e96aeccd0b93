// The prompt estimate of a door's wire body, for the Messages, Responses and Gemini doors: a walk over the parsed JSON
// that counts every text value by its length (~4 characters a token, as estimate-tokens.ts) and every attachment by its
// size, without translating anything. Which nodes are attachments is the door's to say (formats/<door>/
// attachment-tokens.ts); the walk itself knows no door. Object keys count as text too: in tool schemas they are what
// the model reads. Unknown block and item types cost their text, so a type the gateway does not model is priced like
// any other content. Generous on purpose: it is an admission bound (context check, credit reservation).
import { estimateTokensForChars } from '../../routing/token-estimate/estimate-tokens.js';

export interface WireTokens {
  /** Text tokens plus attachment tokens (no per-message overhead: the door adds its own). */
  tokens: number;
  /** An image anywhere (a part, a block, inside a tool result or a document). */
  images: boolean;
  /** A PDF document anywhere. */
  files: boolean;
}

export type WireNode = Record<string, unknown>;

/** An attachment node: what it is, and its tokens (its payload never counts as text). */
export interface Attachment {
  kind: 'image' | 'file';
  tokens: number;
}

/** A door's reading of one node: the attachment it is, or undefined when it is none (then it is walked as text). */
export type AttachmentReader = (node: WireNode) => Attachment | undefined;

export const isWireNode = (value: unknown): value is WireNode =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export const wireText = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** Walks `value` iteratively (a deep body cannot overflow the stack; the body reader bounds its depth anyway). */
export function wireTokens(value: unknown, readAttachment: AttachmentReader): WireTokens {
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
    } else if (isWireNode(node)) {
      const attachment = readAttachment(node);
      if (attachment !== undefined) {
        if (attachment.kind === 'image') found.images = true;
        else found.files = true;
        attachments += attachment.tokens;
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
