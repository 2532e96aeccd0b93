// A cheap, deliberately generous token estimate used before the upstream reports real counts: for context-window
// checks, credit reservations and usage of requests cut off before any usage arrived. ~4 characters a token is
// the usual rule for English text with BPE tokenizers; images and PDFs count from their size and pages
// (attachment-tokens.ts), so that a large attachment is priced before it is sent, never after.
import type {
  DocumentBlock,
  ImageBlock,
  MediaSource,
  TextBlock,
  UserBlock,
  AssistantBlock,
} from '../../core/content-blocks.js';
import type { GenerationRequest } from '../../core/generation-request.js';
import { base64ImageTokens, base64PdfTokens, imageTokens, pdfTokens } from './attachment-tokens.js';

const CHARS_PER_TOKEN = 4;
const MESSAGE_OVERHEAD_TOKENS = 4;

export function estimateTokensForChars(chars: number): number {
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

export function estimateTextTokens(text: string): number {
  return estimateTokensForChars(text.length);
}

export function estimatePromptTokens(request: Pick<GenerationRequest, 'system' | 'messages' | 'tools'>): number {
  let tokens = 3;
  for (const instruction of request.system) tokens += MESSAGE_OVERHEAD_TOKENS + textTokens(instruction.content);
  for (const turn of request.messages) {
    tokens += MESSAGE_OVERHEAD_TOKENS;
    for (const block of turn.content) tokens += blockTokens(block);
  }
  if (request.tools.length > 0) tokens += estimateTextTokens(JSON.stringify(request.tools));
  return tokens;
}

function textTokens(blocks: readonly TextBlock[]): number {
  return blocks.reduce((sum, block) => sum + estimateTextTokens(block.text), 0);
}

/** Inline bytes are read as they are (no data URL is built around a large attachment); a URL or file id as unknown. */
function imageBlockTokens(block: ImageBlock): number {
  return block.source.kind === 'base64' ? base64ImageTokens(block.source.data) : imageTokens(urlOf(block.source));
}

function urlOf(source: MediaSource): string {
  return source.kind === 'url' ? source.url : '';
}

/** A document as vendors without documents get it: text under a title and context header, or a PDF after its context. */
function documentTokens(block: DocumentBlock): number {
  const source = block.source;
  const header = (title: boolean) =>
    estimateTextTokens(
      `${title && block.title ? `Document: ${block.title}\n` : ''}${block.context ? `Context: ${block.context}\n\n` : ''}`,
    );
  switch (source.kind) {
    case 'text':
      return header(true) + estimateTextTokens(source.text);
    case 'blocks':
      return (
        header(true) +
        source.blocks.reduce(
          (sum, inner) => sum + (inner.type === 'text' ? estimateTextTokens(inner.text) : imageBlockTokens(inner)),
          0,
        )
      );
    default:
      return header(false) + (source.kind === 'base64' ? base64PdfTokens(source.data) : pdfTokens(urlOf(source)));
  }
}

function blockTokens(block: UserBlock | AssistantBlock): number {
  switch (block.type) {
    case 'text':
      return estimateTextTokens(block.text);
    case 'image':
      return imageBlockTokens(block);
    case 'document':
      return documentTokens(block);
    case 'tool_result':
      return block.content.reduce((sum, inner) => sum + blockTokens(inner), 0);
    case 'tool_call':
      // The call as a vendor writes it (id, name, JSON input, a little structure around them).
      return estimateTextTokens(
        `{"id":"${block.id}","name":"${block.name}","arguments":${JSON.stringify(block.input)}}`,
      );
    case 'reasoning':
      return estimateTextTokens(block.text ?? '');
    case 'refusal':
      return estimateTextTokens(block.text);
  }
}
