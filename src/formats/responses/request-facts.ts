// What planning and admission need of a Responses request (core/request-facts.ts), read from its wire body without
// converting it; it refuses first what no lane serves: a stored response to continue (parse-request.ts rejectState).
import { OPENAI_REQUEST_OPTIONS, requestedOptions } from '../../core/served-options.js';
import { OPTIONAL_PARAMETERS, type RequestFacts } from '../../core/request-facts.js';
import { wireTokens } from '../shared/wire-tokens.js';
import { responsesAttachment } from './attachment-tokens.js';
import { responsesToolFees, responsesWebSearches } from './hosted-tools.js';
import { withToolFees } from '../shared/hosted-tools.js';
import type { ResponseRequest } from './wire-types.js';
import { rejectState } from './parse-request.js';

const REQUEST_OVERHEAD_TOKENS = 3;
const ITEM_OVERHEAD_TOKENS = 4;

type Item = Record<string, unknown>;

/** The Responses fields, by the chat-format names `provider.require_parameters` reads. */
function sentParameters(body: ResponseRequest, hasTools: boolean): string[] {
  const sent = new Set<string>();
  if (hasTools) sent.add('tools');
  if (body.tool_choice !== undefined) sent.add('tool_choice');
  if (typeof body.parallel_tool_calls === 'boolean') sent.add('parallel_tool_calls');
  if (typeof body.max_output_tokens === 'number') sent.add('max_completion_tokens');
  if (typeof body.temperature === 'number') sent.add('temperature');
  if (typeof body.top_p === 'number') sent.add('top_p');
  if (body.reasoning?.effort) sent.add('reasoning');
  if (body.text?.format) sent.add('response_format');
  return OPTIONAL_PARAMETERS.filter((name) => sent.has(name));
}

export function responsesRequestFacts(body: ResponseRequest): RequestFacts {
  rejectState(body);
  const items = (typeof body.input === 'string' ? [] : body.input) as unknown as Item[];
  // Codex's "Responses lite" sends its tools as an input item (`additional_tools`), not in `tools`.
  const hasTools =
    (body.tools?.length ?? 0) > 0 ||
    items.some((item) => item?.type === 'additional_tools' && Array.isArray(item.tools) && item.tools.length > 0);
  const walked = wireTokens([body.instructions, body.input, body.tools], responsesAttachment);
  const facts: RequestFacts = {
    model: body.model,
    hasUserMessage:
      typeof body.input === 'string' ||
      items.some((item) => item?.role === 'user' && (item.type === undefined || item.type === 'message')),
    hasImages: walked.images,
    hasFiles: walked.files,
    hasTools,
    sentParameters: sentParameters(body, hasTools),
    estimatedPromptTokens: REQUEST_OVERHEAD_TOKENS + ITEM_OVERHEAD_TOKENS * Math.max(1, items.length) + walked.tokens,
  };
  if (body.models !== undefined) facts.models = body.models;
  if (body.provider !== undefined) facts.provider = body.provider;
  if (typeof body.max_output_tokens === 'number') facts.maxOutputTokens = body.max_output_tokens;
  const searches = responsesWebSearches(body.tools, items, (body as { max_tool_calls?: unknown }).max_tool_calls);
  if (searches > 0) facts.maxWebSearches = searches;
  const options = requestedOptions(body as unknown as Record<string, unknown>, OPENAI_REQUEST_OPTIONS);
  if (options) facts.priceOptions = options;
  return withToolFees(
    facts,
    responsesToolFees(body.tools, items, (body as { max_tool_calls?: unknown }).max_tool_calls),
  );
}
