// The native lane for the chat door to OpenAI-compatible vendors (OpenAI, OpenRouter, DeepSeek, Mistral, ...): the
// request as native-chat-request.ts splices it, the answer as native-chat-answer.ts reads it. A request whose
// conversation needs the vendor's own dialect inside its messages (a `developer` role a vendor lacks, reasoning
// replayed under another name, `cache_control` on parts for a vendor other than OpenRouter, message names a vendor
// refuses) takes the translated lane for that vendor instead: rewriting the conversation is what that lane does,
// and the native lane never re-serialises it.
import type { ProviderConfig } from '../adapter.js';
import type { NativeProtocol } from '../native/native-protocol.js';
import { isRecord } from '../payload-readers.js';
import { buildChatRequest } from './native-chat-request.js';
import { createNativeChatReader, readChatJson } from './native-chat-answer.js';
import { resolveVendorProfile, type VendorProfile } from './vendors.js';

function partsFit(content: unknown, profile: VendorProfile): boolean {
  if (!Array.isArray(content)) return true;
  for (const part of content) {
    if (!isRecord(part)) continue;
    if (part.cache_control !== undefined && profile.id !== 'openrouter') return false;
    // A PDF by URL where the vendor takes inline PDFs only: the translated lane answers the clear 400.
    if (part.type === 'file' && profile.fileParts !== 'inline-or-url') {
      const data = isRecord(part.file) ? part.file.file_data : undefined;
      if (typeof data === 'string' && !data.startsWith('data:')) return false;
    }
  }
  return true;
}

function messageFits(message: Record<string, unknown>, profile: VendorProfile): boolean {
  const role = message.role;
  if (role === 'developer' && !profile.developerRole) return false;
  if (typeof message.name === 'string' && message.name !== '' && !profile.acceptsMessageName) return false;
  if (message.cache_control !== undefined && profile.id !== 'openrouter') return false;
  if (role === 'assistant') {
    if (
      typeof message.reasoning === 'string' &&
      message.reasoning !== '' &&
      profile.assistantReasoningField !== 'reasoning'
    )
      return false;
    if (
      Array.isArray(message.reasoning_details) &&
      message.reasoning_details.length > 0 &&
      !profile.acceptsReasoningDetails
    )
      return false;
    if (typeof message.refusal === 'string' && !profile.acceptsRefusal) return false;
  }
  // Tool results as text parts: OpenAI and OpenRouter take them; the translated lane joins them for the others.
  if (role === 'tool' && Array.isArray(message.content) && profile.id !== 'openai' && profile.id !== 'openrouter')
    return false;
  return partsFit(message.content, profile);
}

export function chatFitsVendor(body: Readonly<Record<string, unknown>>, provider: ProviderConfig): boolean {
  const profile = resolveVendorProfile(provider);
  const messages = body.messages;
  if (!Array.isArray(messages)) return false;
  for (const message of messages) if (!isRecord(message) || !messageFits(message, profile)) return false;
  // Reasoning asked for but not to be shown: only OpenRouter honours `exclude` itself (OpenAI shows none anyway).
  const reasoning = body.reasoning;
  if (isRecord(reasoning) && reasoning.exclude === true && profile.id !== 'openrouter' && profile.id !== 'openai')
    return false;
  return true;
}

export const nativeChat: NativeProtocol = {
  accepts: chatFitsVendor,
  buildRequest: buildChatRequest,
  readJson: readChatJson,
  createStreamReader: createNativeChatReader,
  // As the translated lane: OpenAI's reasoning models bill reasoning the chat stream never shows, and an aggregator
  // may route to one, so any reasoning-capable model may hide tokens.
  hidesReasoning: (model) => model.supportsReasoning,
};
