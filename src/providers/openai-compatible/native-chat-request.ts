// The native lane's chat-completions request for one OpenAI-compatible vendor: the client's bytes with only the
// top-level members the gateway must change spliced (top-level-members.ts). What changes, and why:
// - `model`: the vendor's name for it;
// - removed: the gateway's own fields (the door's list: routing, usage accounting) and the fields that change the price
//   or the shape of the answer behind the gateway's back (`n`, `store`, `modalities`, `audio`), as the translated
//   lane drops them;
// - `service_tier` only with a tier the endpoint prices (OpenAI's priority and flex: catalog `pricing.multipliers`),
//   billed at the tier the answer says it served; any other tier is left out and named in x-modelgate-warning, and
//   `auto` or `default` is left out silently (it changes nothing, and not every vendor knows the field);
// - `stream` as the door decided it (an omitted one may mean SSE), and `stream_options.include_usage: true` when
//   streaming (the gateway bills from streamed usage), where the vendor takes stream_options (Mistral does not);
// - the output cap under the field the vendor wants (OpenAI's reasoning models refuse `max_tokens`), or the model's
//   own cap where the vendor requires one;
// - OpenRouter's `reasoning` object as the vendor's own control (`reasoning_effort`, DeepSeek's `thinking`, ...), kept
//   as it is for OpenRouter; `seed` and `user` as the vendor names or takes them; OpenRouter's sampling extras only
//   where the vendor takes them; tool_choice and parallel_tool_calls only with tools (OpenAI refuses them alone).
// - `web_search_options`: it makes the vendor search (OpenRouter's web search on any model, OpenAI's search models) and
//   charge per search or result, and a chat answer reports no count to meter (Anthropic's, OpenAI's Responses and
//   Gemini's lanes do: metering.md). It is left out and named in x-modelgate-warning, as the translated lane does with
//   a hosted tool its upstream cannot serve. (The door's schema already refuses tools that are not functions, such as
//   OpenRouter's `openrouter:web_search` server tool.)
// Everything else (cache_control on parts for OpenRouter, prompt_cache_key, safety_identifier, verbosity, unknown
// content part and tool types) goes as the client wrote it.
import type { NativeRequestInput, NativeUpstreamRequest } from '../native/native-protocol.js';
import { operatorHeaders } from '../native/native-protocol.js';
import { spliceTopLevel } from '../native/top-level-members.js';
import { isRecord } from '../payload-readers.js';
import { chatCompletionsUrl } from './convert-request.js';
import { mapReasoning } from './map-reasoning.js';
import { resolveVendorProfile, type VendorProfile } from './vendors.js';
import type { ReasoningRequest } from '../../core/generation-request.js';
import { OPENAI_REQUEST_OPTIONS } from '../../core/served-options.js';
import { unpricedOptions } from '../native/price-options.js';

/** The chat door's `reasoning` (OpenRouter's shape), as mapReasoning reads it (the chat parser maps it the same way). */
function reasoningOf(config: Record<string, unknown>): ReasoningRequest {
  const out: ReasoningRequest = {};
  if (typeof config.effort === 'string') out.effort = config.effort as ReasoningRequest['effort'];
  if (typeof config.max_tokens === 'number') out.budgetTokens = config.max_tokens;
  if (typeof config.enabled === 'boolean') out.enabled = config.enabled;
  if (typeof config.exclude === 'boolean') out.exclude = config.exclude;
  return out;
}

/** Fields that change price or answer shape behind the gateway's back (the translated lane never sends them). */
export const PRICE_OR_SHAPE_FIELDS = ['n', 'store', 'modalities', 'audio'] as const;

/** OpenRouter's sampling extras: sent only to vendors whose profile lists them (passthroughFields). */
const OPENROUTER_SAMPLING = ['top_k', 'min_p', 'top_a', 'repetition_penalty'] as const;

const present = (value: unknown) => value !== undefined && value !== null;

function outputCap(body: Readonly<Record<string, unknown>>): number | undefined {
  const cap = body.max_completion_tokens ?? body.max_tokens;
  return typeof cap === 'number' ? cap : undefined;
}

export interface ChatRequestEdits {
  remove: Set<string>;
  set: Map<string, string>;
  warnings: string[];
}

export function chatRequestEdits(input: NativeRequestInput, profile: VendorProfile): ChatRequestEdits {
  const { wire, model, stream } = input;
  const body = wire.body;
  const options = unpricedOptions(body, OPENAI_REQUEST_OPTIONS, model, 'drop');
  const remove = new Set<string>([
    ...wire.gatewayFields,
    ...PRICE_OR_SHAPE_FIELDS,
    'web_search_options',
    ...options.remove,
  ]);
  const warnings: string[] = [...options.warnings];
  if (present(body.web_search_options)) warnings.push(UNBILLED_SEARCH_WARNING);
  const set = new Map<string, string>([
    ['model', JSON.stringify(model.upstreamModel)],
    ['stream', JSON.stringify(stream)],
  ]);

  if (stream && profile.streamOptions) {
    const options = isRecord(body.stream_options) ? body.stream_options : {};
    set.set('stream_options', JSON.stringify({ ...options, include_usage: true }));
  } else {
    remove.add('stream_options');
  }

  const cap = outputCap(body);
  const capField = profile.maxTokensField;
  const otherField = capField === 'max_tokens' ? 'max_completion_tokens' : 'max_tokens';
  if (cap !== undefined) {
    if (present(body[otherField]) || !present(body[capField])) set.set(capField, JSON.stringify(cap));
    remove.add(otherField);
  } else if (profile.requiresMaxTokens && model.maxOutputTokens !== undefined) {
    set.set(capField, JSON.stringify(model.maxOutputTokens));
  }

  if (profile.seedField !== 'seed') {
    remove.add('seed');
    if (profile.seedField && present(body.seed)) set.set(profile.seedField, JSON.stringify(body.seed));
  }
  if (!profile.acceptsUser) remove.add('user');

  if (profile.reasoningParam !== 'openrouter' || !model.supportsReasoning) {
    remove.add('reasoning');
    const reasoning = isRecord(body.reasoning) ? reasoningOf(body.reasoning) : undefined;
    for (const [field, value] of Object.entries(mapReasoning(reasoning, profile, model.supportsReasoning, cap)))
      set.set(field, JSON.stringify(value));
  }
  for (const field of OPENROUTER_SAMPLING) if (!profile.passthroughFields.includes(field)) remove.add(field);

  if (!Array.isArray(body.tools) || body.tools.length === 0) {
    remove.add('tools');
    remove.add('tool_choice');
    remove.add('parallel_tool_calls');
  }
  for (const field of remove) if (set.has(field)) remove.delete(field);
  return { remove, set, warnings };
}

const UNBILLED_SEARCH_WARNING =
  'web_search_options left out: the gateway cannot meter its per-search fees on the chat lane to this upstream';

export function buildChatRequest(input: NativeRequestInput): NativeUpstreamRequest {
  const { provider, stream } = input;
  const profile = resolveVendorProfile(provider);
  const baseUrl = provider.baseUrl || profile.defaultBaseUrl;
  // Operator misconfiguration (a generic vendor without <PROVIDER>_BASE_URL), not a client error.
  if (!baseUrl) throw new Error(`Provider ${provider.id} has no base URL configured`);
  const headers = operatorHeaders(provider);
  headers['content-type'] = 'application/json';
  headers.accept = stream ? 'text/event-stream' : 'application/json';
  // A keyless provider (e.g. a local vLLM) gets no authorization header rather than "Bearer undefined".
  if (provider.apiKey) headers.authorization = `Bearer ${provider.apiKey}`;
  const edits = chatRequestEdits(input, profile);
  const body = spliceTopLevel(input.wire.raw, edits);
  return { request: { method: 'POST', url: chatCompletionsUrl(baseUrl), headers, body }, warnings: edits.warnings };
}
