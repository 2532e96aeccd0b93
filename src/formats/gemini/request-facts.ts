// What planning and admission need of a Gemini request (core/request-facts.ts), read from its wire body without
// converting it: the prompt estimate walks the system instruction, the contents and the tools (shared/wire-tokens.ts;
// attachment-tokens.ts prices inlineData and fileData by their size), so a request that goes natively to Google is
// never translated.
import { OPTIONAL_PARAMETERS, type RequestFacts } from '../../core/request-facts.js';
import { wireTokens } from '../shared/wire-tokens.js';
import { geminiAttachment } from './attachment-tokens.js';
import { geminiToolFees, geminiWebSearches } from './hosted-tools.js';
import { withToolFees } from '../shared/hosted-tools.js';
import type { GeminiGenerateContentRequest } from './wire-types.js';

/** Per-request and per-turn overheads, as the chat estimate counts them (estimate-tokens.ts). */
const REQUEST_OVERHEAD_TOKENS = 3;
const TURN_OVERHEAD_TOKENS = 4;

/** The generationConfig and tool fields, by the chat-format names `provider.require_parameters` reads. */
function sentParameters(body: GeminiGenerateContentRequest): string[] {
  const config = body.generationConfig ?? {};
  const sent = new Set<string>();
  if (typeof config.temperature === 'number') sent.add('temperature');
  if (typeof config.topP === 'number') sent.add('top_p');
  if (typeof config.maxOutputTokens === 'number') sent.add('max_tokens');
  if (config.stopSequences?.length) sent.add('stop');
  if (typeof config.seed === 'number') sent.add('seed');
  if (typeof config.presencePenalty === 'number') sent.add('presence_penalty');
  if (typeof config.frequencyPenalty === 'number') sent.add('frequency_penalty');
  if (config.responseMimeType?.toLowerCase() === 'application/json') sent.add('response_format');
  if (config.thinkingConfig?.thinkingBudget !== undefined || config.thinkingConfig?.thinkingLevel !== undefined)
    sent.add('reasoning');
  if (body.tools?.length) sent.add('tools');
  if (body.toolConfig?.functionCallingConfig?.mode) sent.add('tool_choice');
  return OPTIONAL_PARAMETERS.filter((name) => sent.has(name));
}

/** A user turn with something to answer: a part that is not a function response. */
function isUserAsking(content: GeminiGenerateContentRequest['contents'][number]): boolean {
  return (
    (content.role ?? 'user') !== 'model' &&
    (content.parts.length === 0 || content.parts.some((part) => part.functionResponse === undefined))
  );
}

/** `model`: the gateway id the door resolved the path's model to (model-name.ts). */
export function geminiRequestFacts(body: GeminiGenerateContentRequest, model: string): RequestFacts {
  const walked = wireTokens([body.systemInstruction, body.contents, body.tools], geminiAttachment);
  const facts: RequestFacts = {
    model,
    hasUserMessage: body.contents.some(isUserAsking),
    hasImages: walked.images,
    hasFiles: walked.files,
    hasTools: (body.tools?.length ?? 0) > 0,
    sentParameters: sentParameters(body),
    estimatedPromptTokens: REQUEST_OVERHEAD_TOKENS + TURN_OVERHEAD_TOKENS * body.contents.length + walked.tokens,
  };
  const cap = body.generationConfig?.maxOutputTokens;
  if (typeof cap === 'number') facts.maxOutputTokens = cap;
  if (body.generationConfig?.thinkingConfig?.includeThoughts === false) facts.excludeReasoning = true;
  const searches = geminiWebSearches(body.tools);
  if (searches > 0) facts.maxWebSearches = searches;
  return withToolFees(facts, geminiToolFees(body.tools));
}
