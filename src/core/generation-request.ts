// The gateway's own request for one generation: what a front door parses its wire body into on the translated lane,
// and what every provider adapter takes. No door's wire type: a chat completion, an Anthropic Message and an OpenAI
// Response all become this, and each adapter renders it for its vendor. Routing fields (`models`, `provider`) are not
// here: planning reads them from the door's request before anything is translated.
import type { AssistantBlock, CacheBreakpoint, TextBlock, UserBlock } from './content-blocks.js';

export interface GenerationRequest {
  /** Gateway model id (`anthropic/claude-sonnet-5-5`). */
  model: string;
  /**
   * Instructions before the conversation, in order: Messages `system`, Responses `instructions`, the leading system
   * and developer messages of a chat.
   */
  system: Instruction[];
  /** The conversation. Tool results live in user turns; later instructions are system turns where they were given. */
  messages: Turn[];
  tools: Tool[];
  toolChoice?: ToolChoice;
  /** false: at most one tool call per reply. */
  parallelToolCalls?: boolean;
  /** Output-token cap the client set (`max_tokens`, `max_completion_tokens`, `max_output_tokens`). */
  maxOutputTokens?: number;
  temperature?: number;
  topP?: number;
  topK?: number;
  stop?: string[];
  seed?: number;
  presencePenalty?: number;
  frequencyPenalty?: number;
  responseFormat?: ResponseFormat;
  reasoning?: ReasoningRequest;
  /** Prompt-cache controls a vendor takes by name (OpenAI `prompt_cache_key`, `prompt_cache_retention`). */
  cache?: { key?: string; retention?: string };
  /**
   * The door asks for automatic cache breakpoints: an adapter whose vendor caches only up to marked blocks (Anthropic)
   * marks the stable prefix itself when the request marks nothing. Set by the chat and Responses doors, whose clients
   * cannot mark blocks, unless the client sent `X-Modelgate-Auto-Cache: off`.
   */
  autoCache?: boolean;
  /** An opaque end-user id for the vendor's abuse monitoring (`user`, Messages `metadata.user_id`). */
  user?: string;
  /** OpenAI's hashed end-user id. */
  safetyIdentifier?: string;
  /** How long the answer should be (OpenAI `verbosity`). */
  verbosity?: string;
  /**
   * Top-level fields of the client's request that the gateway does not model (`logit_bias`, `min_p`, `prediction`,
   * OpenRouter's `transforms`...), as JSON values. An adapter forwards only those its vendor is known to take; the
   * others are dropped.
   */
  extraFields?: Readonly<Record<string, unknown>>;
  /** Server-Sent Events or one JSON body. */
  stream: boolean;
}

/** A system prompt or developer message: text blocks, each may end a cached prefix. */
export interface Instruction {
  content: TextBlock[];
  /** Given as a `developer` message (OpenAI's newer name for instructions, which some vendors tell apart). */
  developer?: boolean;
  /** The participant name of a chat message (OpenAI `name`). */
  name?: string;
}

export type Turn =
  | { role: 'user'; content: UserBlock[]; name?: string }
  | { role: 'assistant'; content: AssistantBlock[]; name?: string }
  /** Instructions given mid-conversation (Claude Code's system turns, a chat's later system messages). */
  | ({ role: 'system' } & Instruction);

export type Tool = FunctionTool | CustomTool | HostedTool;

/** A tool the client runs, called with JSON arguments. */
export interface FunctionTool {
  type: 'function';
  name: string;
  /** The namespace it belongs to (Codex's `namespace` tools); the vendor sees a flattened name. */
  namespace?: string;
  description?: string;
  /** JSON Schema of the arguments; absent: none. */
  parameters?: Record<string, unknown>;
  /** Arguments must match the schema exactly (OpenAI structured outputs). */
  strict?: boolean;
  cache?: CacheBreakpoint;
}

/** A tool the client runs, called with free text (OpenAI `custom` tools, Codex's `apply_patch`). */
export interface CustomTool {
  type: 'custom';
  name: string;
  namespace?: string;
  description?: string;
  /** Free text, or text following a grammar (`lark`, `regex`). */
  format?: { type: 'text' } | { type: 'grammar'; syntax: string; definition: string };
  cache?: CacheBreakpoint;
}

/** A tool the vendor runs itself (web search, tool search, code execution), with the vendor's settings. */
export interface HostedTool {
  type: 'hosted';
  /** `web_search`, `tool_search`, `local_shell`, `web_search_20250305`, ... as the client named it. */
  name: string;
  /** Every other field of the client's tool definition, unchanged. */
  config: Readonly<Record<string, unknown>>;
  cache?: CacheBreakpoint;
}

export type ToolChoice =
  | { type: 'auto' }
  /** No tool may be called. */
  | { type: 'none' }
  /** Some tool must be called. */
  | { type: 'required' }
  /** This tool must be called. */
  | { type: 'tool'; name: string; namespace?: string };

export type ResponseFormat =
  | { type: 'text' }
  | { type: 'json_object' }
  | { type: 'json_schema'; name: string; schema?: Record<string, unknown>; strict?: boolean; description?: string };

export type ReasoningEffort = 'none' | 'minimal' | 'low' | 'medium' | 'high' | 'xhigh';

/** How much the model should reason, in whichever terms the client used: each adapter maps them to its vendor's. */
export interface ReasoningRequest {
  effort?: ReasoningEffort;
  /** A token budget for reasoning (Anthropic `budget_tokens`, OpenRouter `reasoning.max_tokens`). */
  budgetTokens?: number;
  /** true: reason at the vendor's default; false: do not reason. */
  enabled?: boolean;
  /** Let the model decide how much to think (Anthropic adaptive thinking). */
  adaptive?: boolean;
  /** Ask for a summary of the reasoning (OpenAI `reasoning.summary`: auto, concise, detailed). */
  summary?: string;
  /** Reason, but do not return the reasoning to the client. */
  exclude?: boolean;
}
