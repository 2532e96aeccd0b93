// What planning and admission know of a request, whatever door it came through: computed cheaply by the door from
// its wire body (a walk, never a translation), so a request that takes the native lane is never translated, and a
// 400 KB agent request costs a walk before it is admitted. Planning (plan-route.ts, check-request.ts) and admission
// (pipeline/admit-route.ts) read only these facts. They are the gateway's own types: no door's wire type is among them,
// so routing and the pipeline know no door (each door's reader is formats/<door>/request-facts.ts).
import type { ToolBilling, ToolUses } from './tool-uses.js';
import type { ServedOptions } from './served-options.js';

/**
 * The `provider` routing preferences (OpenRouter's shape), the same on every door; the spec documents each field
 * (ProviderPreferences), and a door's validated body is assignable to it.
 */
export interface ProviderPreferences {
  /** Provider ids to try first, in this order. */
  order?: string[];
  /** Only these provider ids may serve the request. */
  only?: string[];
  /** These provider ids never serve the request. */
  ignore?: string[];
  /** Default true; false: only the providers named in `order` are tried. */
  allow_fallbacks?: boolean;
  /** `price`, `latency` or `throughput` (an open set: other values order nothing). */
  sort?: string;
  /** Only endpoints that support every parameter sent. */
  require_parameters?: boolean;
  /** Endpoints whose prices (USD per million tokens) exceed these are not used. */
  max_price?: { prompt?: number; completion?: number };
}

export interface RequestFacts {
  /** The gateway model id the request names (a door may map its own naming to it: Messages' bare Claude names). */
  model: string;
  /** Fallback models (`models`), in order. */
  models?: readonly string[];
  provider?: ProviderPreferences;
  /** The conversation holds a user turn that is not only tool results (every door requires one). */
  hasUserMessage: boolean;
  /** An image anywhere in the prompt: only models with image input can serve it. */
  hasImages: boolean;
  /** A PDF document anywhere in the prompt. */
  hasFiles: boolean;
  /** Tools are offered: only models with tool calling can serve it. */
  hasTools: boolean;
  /**
   * The optional parameters sent, by their chat-format names (`temperature`, `max_tokens`, `tools`, `reasoning`,
   * ...): `provider.require_parameters` keeps only endpoints that support each (catalog `unsupported_parameters`).
   */
  sentParameters: readonly string[];
  /** The output-token cap the client asked for, if any: what admission reserves for the output. */
  maxOutputTokens?: number;
  /** Web search requests admission reserves for (a hosted search tool is offered; each door's hosted-tools.ts); absent: 0. */
  maxWebSearches?: number;
  /**
   * The searches are asked for in a form the native lane leaves out (chat's `web_search_options`): reserved only for
   * a candidate the request reaches on the translated lane, which turns them into its vendor's search tool.
   */
  searchesTranslatedOnly?: boolean;
  /** Uses of the other hosted tools admission reserves for (each door's hosted-tools.ts); absent: none. */
  maxToolUses?: ToolUses;
  /** What the answer's reader must know of the request to bill those tools as the vendor does; absent: nothing. */
  toolBilling?: ToolBilling;
  /**
   * The price options the request asks for (a priority or flex tier, fast mode, US-only inference), by their served
   * names (core/served-options.ts): the native lane sends them where the endpoint prices them, and admission reserves
   * at their factor; absent: standard.
   */
  priceOptions?: ServedOptions;
  /** The client asked for reasoning to be used but not returned (`reasoning.exclude`). */
  excludeReasoning?: boolean;
  /** Generous prompt estimate: text by its length, attachments by their size. */
  estimatedPromptTokens: number;
}

/** Sampling and format parameters an endpoint can list as unsupported (`unsupported_parameters` in the catalog). */
export const OPTIONAL_PARAMETERS = [
  'temperature',
  'top_p',
  'max_tokens',
  'max_completion_tokens',
  'stop',
  'seed',
  'presence_penalty',
  'frequency_penalty',
  'response_format',
  'tools',
  'tool_choice',
  'parallel_tool_calls',
  'reasoning',
] as const;
