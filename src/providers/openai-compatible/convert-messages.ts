// The internal instructions and conversation → the vendor's chat-completions messages. Every output message is built
// field by field from what the vendor accepts, so nothing reaches a strict vendor by accident:
// - instructions are system messages (developer ones `developer` where the vendor has that role), in place;
// - a user turn's tool results become `tool` messages (first, as they answer the previous assistant turn), its text,
//   images and documents one `user` message after them; images and documents inside a tool result follow in that user
//   message, since chat tool messages carry text only; documents become text and PDF `file` parts (document-parts.ts);
// - an assistant turn's plain reasoning text goes back in the vendor's reasoning field (DeepSeek needs it on tool-call
//   turns), its reasoning records as reasoning_details where the vendor takes them, its calls as tool_calls;
// - `cache_control` goes on content parts for the vendors that take it (OpenRouter); one plain text is sent as a
//   string.
import type { AssistantBlock, ImageBlock, TextBlock, ToolResultBlock, UserBlock } from '../../core/content-blocks.js';
import { GatewayError } from '../../core/gateway-error.js';
import type { GenerationRequest, Instruction, Turn } from '../../core/generation-request.js';
import { documentParts, sourceUrl, type PdfPart } from '../document-parts.js';
import { detailOfRecord, isStateRecord } from './reasoning-details.js';
import type { VendorProfile } from './vendors.js';

type VendorMessage = Record<string, unknown>;
type VendorPart = Record<string, unknown>;

interface Converter {
  profile: VendorProfile;
  /** Names the upstream in errors (e.g. "openai/gpt-5.4-mini at openai"). */
  endpoint: string;
}

function withCache(part: VendorPart, block: { cache?: TextBlock['cache'] }, profile: VendorProfile): VendorPart {
  if (profile.cacheControl && block.cache)
    part.cache_control = { type: 'ephemeral', ...(block.cache.ttl ? { ttl: block.cache.ttl } : {}) };
  return part;
}

function textPart(block: TextBlock, profile: VendorProfile): VendorPart {
  return withCache({ type: 'text', text: block.text }, block, profile);
}

/** A PDF part, as OpenAI and OpenRouter take it; refused (400) where the vendor takes none or cannot fetch a URL. */
function filePart(part: PdfPart, { profile, endpoint }: Converter): VendorPart {
  if (profile.fileParts === 'none') {
    throw new GatewayError(
      400,
      `${endpoint} does not accept PDF documents (file parts); choose a model served by OpenAI, OpenRouter, Anthropic or Google`,
      {
        reason: 'file_input_not_supported',
        provider: profile.id,
      },
    );
  }
  const url = sourceUrl(part.source);
  if (url === undefined) {
    throw new GatewayError(400, `${endpoint} cannot read an uploaded file by its id; send the PDF inline (base64)`, {
      reason: 'file_id_not_supported',
      provider: profile.id,
    });
  }
  if (part.source.kind !== 'base64' && profile.fileParts !== 'inline-or-url') {
    throw new GatewayError(400, `${endpoint} cannot fetch a PDF by URL; send it inline (base64)`, {
      reason: 'file_url_not_supported',
      provider: profile.id,
    });
  }
  return withCache({ type: 'file', file: { filename: part.filename, file_data: url } }, part, profile);
}

function imagePart(block: ImageBlock, { profile, endpoint }: Converter): VendorPart {
  const url = sourceUrl(block.source);
  if (url === undefined)
    throw new GatewayError(
      400,
      `${endpoint} cannot read an uploaded image by its id; send it inline (base64) or by URL`,
      { reason: 'invalid_image_url', provider: profile.id },
    );
  const image: Record<string, unknown> = { url };
  if (block.detail) image.detail = block.detail;
  return withCache({ type: 'image_url', image_url: image }, block, profile);
}

function userParts(blocks: readonly UserBlock[], converter: Converter): VendorPart[] {
  return blocks.flatMap((block): VendorPart[] => {
    switch (block.type) {
      case 'text':
        return [textPart(block, converter.profile)];
      case 'image':
        return [imagePart(block, converter)];
      case 'document':
        return documentParts(block).map((part) =>
          part.type === 'pdf'
            ? filePart(part, converter)
            : part.type === 'image'
              ? imagePart(part, converter)
              : textPart(part, converter.profile),
        );
      default:
        return []; // tool results are messages of their own
    }
  });
}

/** One uncached text part is sent as a plain string; both mean the same to every vendor. */
function contentOf(parts: VendorPart[]): string | VendorPart[] {
  const only = parts.length === 1 ? parts[0] : undefined;
  return only?.type === 'text' && only.cache_control === undefined ? (only.text as string) : parts;
}

function instructionMessage(instruction: Instruction, { profile }: Converter): VendorMessage {
  const role = instruction.developer && profile.developerRole ? 'developer' : 'system';
  const message: VendorMessage = {
    role,
    content: contentOf(instruction.content.map((block) => textPart(block, profile))),
  };
  return withName(message, instruction.name, profile);
}

function withName(message: VendorMessage, name: string | undefined, profile: VendorProfile): VendorMessage {
  if (profile.acceptsMessageName && typeof name === 'string' && name !== '') message.name = name;
  return message;
}

/** Tool results are strings at several vendors: their text blocks are joined. */
function toolMessage(block: ToolResultBlock): VendorMessage {
  const text = block.content.map((inner) => (inner.type === 'text' ? inner.text : '')).join('');
  return { role: 'tool', tool_call_id: block.callId, content: text };
}

function userMessages(turn: Turn & { role: 'user' }, converter: Converter): VendorMessage[] {
  const results = turn.content.filter((block): block is ToolResultBlock => block.type === 'tool_result');
  const messages = results.map(toolMessage);
  const media = results.flatMap((result) => result.content.filter((inner) => inner.type !== 'text'));
  const parts = [...userParts(turn.content, converter), ...userParts(media, converter)];
  if (parts.length > 0 || results.length === 0)
    messages.push(withName({ role: 'user', content: contentOf(parts) }, turn.name, converter.profile));
  return messages;
}

function assistantMessage(turn: Turn & { role: 'assistant' }, { profile }: Converter): VendorMessage {
  const blocks: readonly AssistantBlock[] = turn.content;
  const texts = blocks.filter((block): block is TextBlock => block.type === 'text');
  const out: VendorMessage = { role: 'assistant' };
  const cached = profile.cacheControl && texts.some((block) => block.cache);
  out.content =
    texts.length === 0
      ? null
      : cached
        ? texts.map((block) => textPart(block, profile))
        : texts.map((block) => block.text).join('');
  const calls = blocks.flatMap((block) =>
    block.type === 'tool_call'
      ? [{ id: block.id, type: 'function', function: { name: block.name, arguments: block.input } }]
      : [],
  );
  if (calls.length > 0) out.tool_calls = calls;
  const reasoning = blocks.flatMap((block) => (block.type === 'reasoning' ? [block] : []));
  // Replaying the reasoning is required at some vendors (DeepSeek tool-call turns) and a 4xx at others.
  const plain = reasoning
    .filter((block) => !isStateRecord(block))
    .map((block) => block.text ?? '')
    .join('');
  if (profile.assistantReasoningField && plain !== '') out[profile.assistantReasoningField] = plain;
  const records = reasoning.filter(isStateRecord);
  if (profile.acceptsReasoningDetails && records.length > 0)
    out.reasoning_details = records.map((record, i) => detailOfRecord(record, i));
  const refusal = blocks.flatMap((block) => (block.type === 'refusal' ? [block.text] : []));
  if (profile.acceptsRefusal && refusal.length > 0) out.refusal = refusal.join('');
  return withName(out, turn.name, profile);
}

/** `endpoint` names the upstream in errors; the vendor's id by default. */
export function convertMessages(
  request: Pick<GenerationRequest, 'system' | 'messages'>,
  profile: VendorProfile,
  endpoint = `Provider ${profile.id}`,
): VendorMessage[] {
  const converter: Converter = { profile, endpoint };
  const messages = request.system.map((instruction) => instructionMessage(instruction, converter));
  for (const turn of request.messages) {
    if (turn.role === 'system') messages.push(instructionMessage(turn, converter));
    else if (turn.role === 'user') messages.push(...userMessages(turn, converter));
    else messages.push(assistantMessage(turn, converter));
  }
  return messages;
}
