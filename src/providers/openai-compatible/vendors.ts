// Per-vendor quirks of the chat-completions dialects we speak. The adapter code is one base; everything
// that differs between vendors is data here, so a new OpenAI-compatible vendor is a new entry, not new code.
import type { ProviderConfig } from '../adapter.js';
import type { WireProtocol } from '../../core/wire-protocol.js';

export type Effort = 'none' | 'minimal' | 'low' | 'medium' | 'high' | 'xhigh';

/** How the gateway's `reasoning` object reaches the vendor. */
export type ReasoningParam =
  /** OpenRouter: the `reasoning` object is its own format; forwarded as is. */
  | 'openrouter'
  /** `reasoning_effort: <level>` (OpenAI, xAI, Groq, Gemini's compatibility endpoint). */
  | 'reasoning-effort'
  /** DeepSeek: `thinking: {type: enabled|disabled}` plus `reasoning_effort` high|max. */
  | 'deepseek-thinking'
  /** Anthropic's compatibility endpoint: `thinking: {type: "enabled", budget_tokens}` (it ignores reasoning_effort). */
  | 'anthropic-thinking'
  /** No request parameter; the model decides. */
  | 'none';

export interface VendorProfile {
  id: string;
  /** Where the vendor serves its OpenAI-compatible API when <PROVIDER>_BASE_URL is unset. */
  defaultBaseUrl: string;
  /** Vendor understands the `developer` role; otherwise it is sent as `system`. */
  developerRole: boolean;
  /** Name of the output cap field the vendor wants. */
  maxTokensField: 'max_tokens' | 'max_completion_tokens';
  /** Send the model's output cap when the client set none (Anthropic requires one). */
  requiresMaxTokens: boolean;
  reasoningParam: ReasoningParam;
  /** Effort levels the vendor accepts, lowest first; requested levels snap to the nearest. */
  efforts: readonly Effort[];
  /** What to send when the client turns reasoning off: the vendor's documented "off" value, or omit. */
  disableWith: 'none' | 'omit';
  /** Field that carries an assistant's earlier reasoning text back, or null to drop it (vendors that reject it). */
  assistantReasoningField: 'reasoning' | 'reasoning_content' | null;
  /** Vendor accepts `reasoning_details` on assistant messages (signed/encrypted blocks passed back). */
  acceptsReasoningDetails: boolean;
  /** Vendor accepts `stream_options` (Mistral rejects unknown fields and reports usage anyway). */
  streamOptions: boolean;
  /** Field name for the sampling seed, or null when the vendor has none. */
  seedField: 'seed' | 'random_seed' | null;
  /** Vendor accepts the end-user id `user`. */
  acceptsUser: boolean;
  /** Vendor accepts `name` on messages. */
  acceptsMessageName: boolean;
  /** Vendor accepts `refusal` on assistant messages. */
  acceptsRefusal: boolean;
  /** Client extras (not in the gateway schema) forwarded verbatim; everything else unknown is dropped. */
  passthroughFields: readonly string[];
  /** PDF `file` parts the vendor takes: none, inline (base64 data URLs) only, or inline and https URLs. */
  fileParts: 'none' | 'inline' | 'inline-or-url';
  /** The upstream protocols the vendor serves: chat completions, and OpenAI's own Responses API (/responses). */
  protocols: readonly WireProtocol[];
  /** Vendor takes `cache_control` breakpoints on content parts (OpenRouter passes them to Anthropic and Gemini). */
  cacheControl: boolean;
}

const ALL_EFFORTS: readonly Effort[] = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh'];

const BASE: Omit<VendorProfile, 'id' | 'defaultBaseUrl'> = {
  developerRole: false,
  maxTokensField: 'max_tokens',
  requiresMaxTokens: false,
  reasoningParam: 'none',
  efforts: ALL_EFFORTS,
  disableWith: 'omit',
  assistantReasoningField: null,
  acceptsReasoningDetails: false,
  streamOptions: true,
  seedField: 'seed',
  acceptsUser: true,
  acceptsMessageName: false,
  acceptsRefusal: false,
  passthroughFields: [],
  fileParts: 'none',
  protocols: ['chat'],
  cacheControl: false,
};

function profile(id: string, defaultBaseUrl: string, overrides: Partial<VendorProfile>): VendorProfile {
  return { ...BASE, id, defaultBaseUrl, ...overrides };
}

export const VENDOR_PROFILES: Readonly<Record<string, VendorProfile>> = {
  // OpenAI: reasoning models reject max_tokens; max_completion_tokens works for every chat model.
  // `none` is a documented reasoning_effort value (gpt-5.1+). service_tier, n, store, modalities are
  // dropped on purpose: they change price or output shape behind the gateway's back.
  openai: profile('openai', 'https://api.openai.com/v1', {
    developerRole: true,
    maxTokensField: 'max_completion_tokens',
    reasoningParam: 'reasoning-effort',
    disableWith: 'none',
    acceptsMessageName: true,
    acceptsRefusal: true,
    passthroughFields: [
      'logit_bias',
      'verbosity',
      'prediction',
      'prompt_cache_key',
      'prompt_cache_retention',
      'safety_identifier',
    ],
    // PDFs as `file` parts with base64 file_data; chat completions cannot fetch a URL (only the Files API ids).
    fileParts: 'inline',
    protocols: ['chat', 'responses'],
  }),
  // DeepSeek thinking mode returns reasoning_content and requires it back on tool-call turns.
  deepseek: profile('deepseek', 'https://api.deepseek.com', {
    reasoningParam: 'deepseek-thinking',
    assistantReasoningField: 'reasoning_content',
  }),
  // Mistral validates strictly (422 extra_forbidden): no stream_options, user, name, reasoning fields;
  // seed is `random_seed`; streamed usage arrives on the last chunk without asking.
  mistral: profile('mistral', 'https://api.mistral.ai/v1', {
    streamOptions: false,
    seedField: 'random_seed',
    acceptsUser: false,
  }),
  // Groq: reasoning_effort none|default|low|medium|high (model dependent), reasoning in `message.reasoning`.
  groq: profile('groq', 'https://api.groq.com/openai/v1', {
    reasoningParam: 'reasoning-effort',
    efforts: ['none', 'low', 'medium', 'high'],
    disableWith: 'none',
  }),
  // xAI: reasoning_effort low|high (grok-3-mini family), reasoning in `reasoning_content`.
  'x-ai': profile('x-ai', 'https://api.x.ai/v1', {
    reasoningParam: 'reasoning-effort',
    efforts: ['low', 'high'],
  }),
  // OpenRouter speaks the gateway's own reasoning format and routes to any vendor, so it takes most fields.
  // `models`/`route` are dropped: they would switch to models the catalog did not price.
  openrouter: profile('openrouter', 'https://openrouter.ai/api/v1', {
    developerRole: true,
    reasoningParam: 'openrouter',
    assistantReasoningField: 'reasoning',
    acceptsReasoningDetails: true,
    acceptsMessageName: true,
    acceptsRefusal: true,
    passthroughFields: [
      'provider',
      'transforms',
      'top_k',
      'min_p',
      'top_a',
      'repetition_penalty',
      'logit_bias',
      'verbosity',
    ],
    // PDFs as `file` parts, file_data a base64 data URL or a URL it fetches.
    fileParts: 'inline-or-url',
    cacheControl: true,
  }),
  // Anthropic's OpenAI SDK compatibility layer: hoists system/developer, needs an output cap, and takes
  // extended thinking as `thinking` (reasoning_effort is ignored there).
  anthropic: profile('anthropic', 'https://api.anthropic.com/v1', {
    developerRole: true,
    requiresMaxTokens: true,
    reasoningParam: 'anthropic-thinking',
  }),
  // Gemini's OpenAI compatibility endpoint: reasoning_effort minimal..high, `none` turns thinking off.
  google: profile('google', 'https://generativelanguage.googleapis.com/v1beta/openai', {
    reasoningParam: 'reasoning-effort',
    efforts: ['none', 'minimal', 'low', 'medium', 'high'],
    disableWith: 'none',
  }),
  // Any other OpenAI-compatible server (vLLM, Together, Fireworks, ...): the common subset only.
  generic: profile('generic', '', {}),
};

const ALIASES: Readonly<Record<string, string>> = { xai: 'x-ai', gemini: 'google', mistralai: 'mistral' };

function pick<T>(value: unknown, check: (v: unknown) => v is T): T | undefined {
  return check(value) ? value : undefined;
}
const isBool = (v: unknown): v is boolean => typeof v === 'boolean';
const isString = (v: unknown): v is string => typeof v === 'string';
const isStringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every(isString);

/**
 * The profile for a provider: chosen by `quirks.vendor` or the provider id (aliases allowed), falling back to
 * `generic`; individual `quirks` keys override fields (operator configuration, validated by type).
 */
export function resolveVendorProfile(provider: Pick<ProviderConfig, 'id' | 'quirks'>): VendorProfile {
  const quirks = provider.quirks ?? {};
  const requested = (pick(quirks.vendor, isString) ?? provider.id).toLowerCase();
  const base = VENDOR_PROFILES[ALIASES[requested] ?? requested] ?? VENDOR_PROFILES.generic;
  const overrides: Partial<VendorProfile> = {};
  for (const key of [
    'developerRole',
    'requiresMaxTokens',
    'acceptsReasoningDetails',
    'streamOptions',
    'acceptsUser',
    'acceptsMessageName',
    'acceptsRefusal',
    'cacheControl',
  ] as const) {
    const value = pick(quirks[key], isBool);
    if (value !== undefined) overrides[key] = value;
  }
  const maxTokensField = quirks.maxTokensField;
  if (maxTokensField === 'max_tokens' || maxTokensField === 'max_completion_tokens')
    overrides.maxTokensField = maxTokensField;
  const reasoningParam = quirks.reasoningParam;
  if (
    typeof reasoningParam === 'string' &&
    ['openrouter', 'reasoning-effort', 'deepseek-thinking', 'anthropic-thinking', 'none'].includes(reasoningParam)
  ) {
    overrides.reasoningParam = reasoningParam as ReasoningParam;
  }
  const efforts = pick(quirks.efforts, isStringArray)?.filter((e): e is Effort =>
    (ALL_EFFORTS as readonly string[]).includes(e),
  );
  if (efforts && efforts.length > 0) overrides.efforts = ALL_EFFORTS.filter((e) => efforts.includes(e));
  const passthrough = pick(quirks.passthroughFields, isStringArray);
  if (passthrough) overrides.passthroughFields = passthrough;
  // An operator whose server takes PDF file parts (a vLLM, a proxy in front of OpenAI) says so here.
  const fileParts = quirks.fileParts;
  if (fileParts === 'none' || fileParts === 'inline' || fileParts === 'inline-or-url') overrides.fileParts = fileParts;
  return { ...base, ...overrides };
}
