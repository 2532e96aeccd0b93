// The slice of Anthropic's Messages API (POST /v1/messages, anthropic-version 2023-06-01) this adapter
// writes. Only request shapes live here: responses and stream events are untrusted input and are read
// field by field with the payload readers instead of being cast to a type.

/** Prompt-caching breakpoint: `ephemeral`, for 5 minutes (default) or 1 hour. */
export interface AnthropicCacheControl {
  type: 'ephemeral';
  ttl?: string;
}

export interface AnthropicTextBlock {
  type: 'text';
  text: string;
  cache_control?: AnthropicCacheControl;
}

export interface AnthropicImageBlock {
  type: 'image';
  source:
    | { type: 'base64'; media_type: AnthropicImageMediaType; data: string }
    | { type: 'url'; url: string }
    | { type: 'file'; file_id: string };
  cache_control?: AnthropicCacheControl;
}

/** A document: a PDF (inline or by URL), plain text, or content blocks; title, context and citations as given. */
export interface AnthropicDocumentBlock {
  type: 'document';
  source:
    | { type: 'base64'; media_type: string; data: string }
    | { type: 'url'; url: string }
    | { type: 'file'; file_id: string }
    | { type: 'text'; media_type: 'text/plain'; data: string }
    | { type: 'content'; content: Array<AnthropicTextBlock | AnthropicImageBlock> };
  title?: string;
  context?: string;
  citations?: { enabled: boolean };
  cache_control?: AnthropicCacheControl;
}

export type AnthropicImageMediaType = 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp';

export interface AnthropicThinkingBlock {
  type: 'thinking';
  thinking: string;
  signature: string;
}

export interface AnthropicRedactedThinkingBlock {
  type: 'redacted_thinking';
  data: string;
}

export interface AnthropicToolUseBlock {
  type: 'tool_use';
  id: string;
  name: string;
  input: Record<string, unknown>;
  cache_control?: AnthropicCacheControl;
}

export interface AnthropicToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  content?: string | Array<AnthropicTextBlock | AnthropicImageBlock | AnthropicDocumentBlock>;
  is_error?: boolean;
  cache_control?: AnthropicCacheControl;
}

export type AnthropicReasoningBlock = AnthropicThinkingBlock | AnthropicRedactedThinkingBlock;
export type AnthropicUserBlock =
  | AnthropicTextBlock
  | AnthropicImageBlock
  | AnthropicDocumentBlock
  | AnthropicToolResultBlock;
export type AnthropicAssistantBlock = AnthropicTextBlock | AnthropicReasoningBlock | AnthropicToolUseBlock;

export type AnthropicMessage =
  | { role: 'user'; content: string | AnthropicUserBlock[] }
  | { role: 'assistant'; content: string | AnthropicAssistantBlock[] };

export interface AnthropicTool {
  name: string;
  description?: string;
  input_schema: Record<string, unknown>;
  cache_control?: AnthropicCacheControl;
}

/** One of Anthropic's server tools (`web_search_20250305`, ...): its dated type, its name and its settings. */
export interface AnthropicServerTool {
  type: string;
  name: string;
  cache_control?: AnthropicCacheControl;
  [setting: string]: unknown;
}

export type AnthropicToolChoice =
  | { type: 'auto' | 'any'; disable_parallel_tool_use?: boolean }
  | { type: 'tool'; name: string; disable_parallel_tool_use?: boolean }
  | { type: 'none' };

export type AnthropicThinking = { type: 'enabled'; budget_tokens: number } | { type: 'adaptive' };

export interface AnthropicRequestBody {
  model: string;
  max_tokens: number;
  messages: AnthropicMessage[];
  system?: string | AnthropicTextBlock[];
  stop_sequences?: string[];
  temperature?: number;
  top_p?: number;
  top_k?: number;
  tools?: Array<AnthropicTool | AnthropicServerTool>;
  tool_choice?: AnthropicToolChoice;
  thinking?: AnthropicThinking;
  /** How hard an adaptive thinker works: low, medium, high or max. */
  output_config?: { effort: string };
  metadata?: { user_id: string };
  stream: boolean;
}

/** `format` of the reasoning records this adapter emits and accepts back. */
export const REASONING_FORMAT = 'anthropic-claude-v1';
