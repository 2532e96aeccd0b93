// Gateway messages → the vendor's chat-completions messages. Every output message is built field by field
// from what the vendor accepts, so nothing a client adds to a message reaches a strict vendor by accident.
import type { ChatMessage, ContentPart, ToolCall } from '../../core/chat-types.js';
import { GatewayError } from '../../core/gateway-error.js';
import type { VendorProfile } from './vendors.js';

type VendorMessage = Record<string, unknown>;

type FilePart = Extract<ContentPart, { type: 'file' }>;

/** A PDF part, as OpenAI and OpenRouter take it; refused (400) where the vendor takes none or cannot fetch a URL. */
function convertFile(part: FilePart, profile: VendorProfile, endpoint: string): Record<string, unknown> {
  if (profile.fileParts === 'none') {
    throw new GatewayError(400, `${endpoint} does not accept PDF documents (file parts); choose a model served by OpenAI, OpenRouter, Anthropic or Google`, {
      reason: 'file_input_not_supported', provider: profile.id,
    });
  }
  const isUrl = !part.file.file_data.startsWith('data:');
  if (isUrl && profile.fileParts !== 'inline-or-url') {
    throw new GatewayError(400, `${endpoint} cannot fetch a PDF by URL; send it inline (base64)`, {
      reason: 'file_url_not_supported', provider: profile.id,
    });
  }
  return { type: 'file', file: { filename: part.file.filename || 'document.pdf', file_data: part.file.file_data } };
}

function convertPart(part: ContentPart, profile: VendorProfile, endpoint: string): Record<string, unknown> {
  if (part.type === 'image_url') {
    const image: Record<string, unknown> = { url: part.image_url.url };
    if (part.image_url.detail) image.detail = part.image_url.detail;
    return { type: 'image_url', image_url: image };
  }
  if (part.type === 'file') return convertFile(part, profile, endpoint);
  return { type: 'text', text: part.text };
}

/** Strings pass; part arrays pass as parts (every vendor here accepts text parts). */
function convertContent(content: string | ContentPart[], profile: VendorProfile, endpoint: string): string | Array<Record<string, unknown>> {
  return typeof content === 'string' ? content : content.map((part) => convertPart(part, profile, endpoint));
}

/** Tool results must be strings at several vendors; text parts are joined. */
function joinText(content: string | Array<{ text: string }>): string {
  return typeof content === 'string' ? content : content.map((part) => part.text).join('');
}

function convertToolCall(call: ToolCall): Record<string, unknown> {
  return {
    id: call.id,
    type: 'function',
    function: { name: call.function.name, arguments: call.function.arguments },
  };
}

function withName(out: VendorMessage, name: unknown, profile: VendorProfile): VendorMessage {
  if (profile.acceptsMessageName && typeof name === 'string' && name !== '') out.name = name;
  return out;
}

/** `endpoint` names the upstream in errors (e.g. "openai/gpt-5.4-mini at openai"); the vendor's id by default. */
export function convertMessages(messages: readonly ChatMessage[], profile: VendorProfile, endpoint = `Provider ${profile.id}`): VendorMessage[] {
  return messages.map((message): VendorMessage => {
    switch (message.role) {
      case 'system':
      case 'developer': {
        const role = message.role === 'developer' && profile.developerRole ? 'developer' : 'system';
        return withName({ role, content: convertContent(message.content, profile, endpoint) }, message.name, profile);
      }
      case 'user':
        return withName({ role: 'user', content: convertContent(message.content, profile, endpoint) }, message.name, profile);
      case 'assistant': {
        const out: VendorMessage = { role: 'assistant' };
        const content = message.content;
        out.content = content === undefined || content === null ? null : convertContent(content, profile, endpoint);
        if (message.tool_calls && message.tool_calls.length > 0) out.tool_calls = message.tool_calls.map(convertToolCall);
        // Replaying the reasoning is required at some vendors (DeepSeek tool-call turns) and a 4xx at others.
        if (profile.assistantReasoningField && typeof message.reasoning === 'string' && message.reasoning !== '') {
          out[profile.assistantReasoningField] = message.reasoning;
        }
        if (profile.acceptsReasoningDetails && message.reasoning_details && message.reasoning_details.length > 0) {
          out.reasoning_details = message.reasoning_details;
        }
        if (profile.acceptsRefusal && typeof message.refusal === 'string') out.refusal = message.refusal;
        return withName(out, message.name, profile);
      }
      case 'tool':
        return { role: 'tool', tool_call_id: message.tool_call_id, content: joinText(message.content) };
    }
  });
}
