// What planning and admission need of a Messages request (core/request-facts.ts), read from its wire body without
// converting it: the prompt estimate walks the system prompt, the turns and the tools (shared/wire-tokens.ts,
// attachment-tokens.ts), so a request that goes natively to Anthropic is never translated, and unknown block types
// cost their text.
import { ANTHROPIC_REQUEST_OPTIONS, requestedOptions } from '../../core/served-options.js';
import { OPTIONAL_PARAMETERS, type RequestFacts } from '../../core/request-facts.js';
import { wireTokens } from '../shared/wire-tokens.js';
import { messagesAttachment } from './attachment-tokens.js';
import { messagesToolFees, messagesWebSearches } from './hosted-tools.js';
import { withToolFees } from '../shared/hosted-tools.js';
import type { MessagesRequest } from './wire-types.js';

/** Per-request and per-turn overheads, as the chat estimate counts them (estimate-tokens.ts). */
const REQUEST_OVERHEAD_TOKENS = 3;
const TURN_OVERHEAD_TOKENS = 4;

/** The Messages fields, by the chat-format names `provider.require_parameters` reads (catalog `unsupported_parameters`). */
function sentParameters(body: MessagesRequest): string[] {
  const sent = new Set<string>(['max_tokens']);
  if (typeof body.temperature === 'number') sent.add('temperature');
  if (typeof body.top_p === 'number') sent.add('top_p');
  if (body.stop_sequences?.length) sent.add('stop');
  if (body.tools?.length) sent.add('tools');
  if (body.tool_choice) {
    sent.add('tool_choice');
    if (body.tool_choice.disable_parallel_tool_use === true) sent.add('parallel_tool_calls');
  }
  if (body.thinking || body.output_config?.effort) sent.add('reasoning');
  return OPTIONAL_PARAMETERS.filter((name) => sent.has(name));
}

/** A user turn that is not only tool results: something for the model to answer. */
function isUserAsking(message: MessagesRequest['messages'][number]): boolean {
  if (message.role !== 'user') return false;
  const content = message.content as unknown;
  return (
    !Array.isArray(content) ||
    content.length === 0 ||
    content.some((block: { type?: unknown }) => block?.type !== 'tool_result')
  );
}

/** `model`: the gateway id the door resolved the request's model name to (model-name.ts). */
export function messagesRequestFacts(body: MessagesRequest, model: string): RequestFacts {
  const walked = wireTokens([body.system, body.messages, body.tools], messagesAttachment);
  const facts: RequestFacts = {
    model,
    hasUserMessage: body.messages.some(isUserAsking),
    hasImages: walked.images,
    hasFiles: walked.files,
    hasTools: (body.tools?.length ?? 0) > 0,
    sentParameters: sentParameters(body),
    maxOutputTokens: body.max_tokens,
    estimatedPromptTokens: REQUEST_OVERHEAD_TOKENS + TURN_OVERHEAD_TOKENS * body.messages.length + walked.tokens,
  };
  if (body.models !== undefined) facts.models = body.models;
  if (body.provider !== undefined) facts.provider = body.provider;
  const searches = messagesWebSearches(body.tools);
  if (searches > 0) facts.maxWebSearches = searches;
  const options = requestedOptions(body as unknown as Record<string, unknown>, ANTHROPIC_REQUEST_OPTIONS);
  if (options) facts.priceOptions = options;
  return withToolFees(facts, messagesToolFees(body.tools));
}
