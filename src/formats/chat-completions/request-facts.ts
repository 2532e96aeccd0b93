// What planning and admission need of a chat-completions request (core/request-facts.ts), read from its wire body:
// the prompt estimate walks the chat messages as they arrived (prompt-tokens.ts), so nothing is converted.
import type { ChatCompletionRequest } from './wire-types.js';
import { OPTIONAL_PARAMETERS, type RequestFacts } from '../../core/request-facts.js';
import { chatPromptTokens } from './prompt-tokens.js';
import { DEFAULT_RESERVED_WEB_SEARCHES } from '../shared/hosted-tools.js';
import { OPENAI_REQUEST_OPTIONS, requestedOptions } from '../../core/served-options.js';

function hasPart(request: ChatCompletionRequest, type: string): boolean {
  return request.messages.some((message) => {
    const content = (message as { content?: unknown }).content;
    return Array.isArray(content) && content.some((part: { type?: string }) => part?.type === type);
  });
}

/** `web_search_options` asks for a web search (served by a vendor that runs one, formats/shared/hosted-tools.ts). */
function chatWebSearches(webSearchOptions: unknown): number {
  return typeof webSearchOptions === 'object' && webSearchOptions !== null ? DEFAULT_RESERVED_WEB_SEARCHES : 0;
}

export function chatRequestFacts(body: ChatCompletionRequest): RequestFacts {
  const raw = body as unknown as Record<string, unknown>;
  const cap = body.max_completion_tokens ?? body.max_tokens;
  const facts: RequestFacts = {
    model: body.model,
    hasUserMessage: body.messages.some((message) => message.role === 'user'),
    hasImages: hasPart(body, 'image_url'),
    hasFiles: hasPart(body, 'file'),
    hasTools: (body.tools?.length ?? 0) > 0,
    sentParameters: OPTIONAL_PARAMETERS.filter((name) => raw[name] !== undefined && raw[name] !== null),
    estimatedPromptTokens: chatPromptTokens(body),
  };
  if (body.models !== undefined) facts.models = body.models;
  if (body.provider !== undefined) facts.provider = body.provider;
  if (typeof cap === 'number') facts.maxOutputTokens = cap;
  if (body.reasoning?.exclude === true) facts.excludeReasoning = true;
  const searches = chatWebSearches(raw.web_search_options);
  if (searches > 0) {
    facts.maxWebSearches = searches;
    // The native chat lane leaves web_search_options out (native-chat-request.ts): no search to pay for there.
    facts.searchesTranslatedOnly = true;
  }
  const options = requestedOptions(raw, OPENAI_REQUEST_OPTIONS);
  if (options) facts.priceOptions = options;
  return facts;
}
