// The content of a conversation as the gateway holds it, between a front door that parsed it and a provider adapter
// that sends it (and back: what a model produced). Blocks are plain data in no vendor's wire shape: each door and each
// adapter maps its own format to and from them, and a field one side cannot express is the other side's decision
// (send it another way, leave it out, or refuse the request with a 400). Everything is JSON-serialisable, so a
// request can be recorded as a fixture and compared as a whole.

/**
 * A prompt-caching breakpoint: the prefix up to and including the block it is set on may be cached. Anthropic takes
 * it as `cache_control` on nearly every block kind and on tools; OpenRouter forwards it on content parts; vendors that
 * cache on their own (OpenAI, DeepSeek, Gemini) ignore it.
 */
export interface CacheBreakpoint {
  /** How long the entry lives: Anthropic's `5m` (default) or `1h` (written at twice the input price). */
  ttl?: string;
}

/** Where image or document bytes come from. */
export type MediaSource =
  /** Inline bytes, base64 encoded. */
  | { kind: 'base64'; mediaType: string; data: string }
  /** A URL the vendor fetches itself (https, or a data: URL a door could not take apart). */
  | { kind: 'url'; url: string }
  /** A file uploaded to the vendor before (OpenAI `file_id`, Anthropic Files API). */
  | { kind: 'file'; fileId: string };

/** A reference from generated text to a source (Anthropic citations, OpenAI url annotations), kept as the vendor gave it. */
export interface Citation {
  /** The vendor's citation type (`char_location`, `page_location`, `web_search_result_location`, `url_citation`, ...). */
  type: string;
  /** The quoted text, when the vendor gives one. */
  citedText?: string;
  /** Every other field of the vendor's citation, unchanged (locations, titles, urls, encrypted indexes). */
  fields: Readonly<Record<string, unknown>>;
}

export interface TextBlock {
  type: 'text';
  text: string;
  cache?: CacheBreakpoint;
  /** Sources the text quotes (assistant text from a model that cites; replayed as it came). */
  citations?: Citation[];
}

export interface ImageBlock {
  type: 'image';
  source: MediaSource;
  /** OpenAI's resolution hint. */
  detail?: 'auto' | 'low' | 'high';
  cache?: CacheBreakpoint;
}

/** A document's content when it is not one file: plain text, or text and images given as blocks. */
export type DocumentContent =
  | { kind: 'text'; text: string }
  | { kind: 'blocks'; blocks: Array<TextBlock | ImageBlock> };

/**
 * A document given to the model (Anthropic's `document`, a chat `file` part): a PDF or other file, plain text, or
 * content blocks. Title, context and citations are Anthropic's; a vendor without documents gets the content with the
 * title and context written above it.
 */
export interface DocumentBlock {
  type: 'document';
  source: MediaSource | DocumentContent;
  /** The document's name (a file name for a chat `file` part). */
  title?: string;
  /** What the document is, for the model (not quoted by citations). */
  context?: string;
  /** The client asked the model to cite this document. */
  citations?: boolean;
  cache?: CacheBreakpoint;
}

/**
 * What kind of tool a call is of: a function (JSON arguments), a custom (freeform) tool (raw text input), or a
 * client-run tool search (OpenAI's `tool_search` with `execution: "client"`, JSON arguments).
 */
export type ToolCallKind = 'function' | 'custom' | 'tool_search';

/**
 * A call of a tool by the model. `input` is text: the JSON arguments of a function tool as the model wrote them, or
 * the raw input of a custom (freeform) tool. A namespaced tool's call names its namespace apart.
 */
export interface ToolCallBlock {
  type: 'tool_call';
  /** The id the result answers (`call_…`, `toolu_…`). */
  id: string;
  name: string;
  namespace?: string;
  kind: ToolCallKind;
  input: string;
  cache?: CacheBreakpoint;
}

/** What a tool call returned, sent back by the client; lives in a user turn. */
export interface ToolResultBlock {
  type: 'tool_result';
  /** The id of the call it answers. */
  callId: string;
  /** A custom tool's output (`custom_tool_call_output`) rather than a function's. */
  kind?: 'function' | 'custom';
  content: Array<TextBlock | ImageBlock | DocumentBlock>;
  isError?: boolean;
  cache?: CacheBreakpoint;
}

/**
 * One record of a model's reasoning, with what its vendor needs to verify or restore it when the conversation comes
 * back: Anthropic thinking (text + signature) and redacted thinking (data), Gemini thought signatures (on a thought,
 * on answer text, or on a function call: `callId`), OpenAI reasoning items (summary + encrypted content), or plain
 * reasoning text (DeepSeek, OpenRouter's `reasoning`). `format` names whose state it is; an adapter replays only
 * records of its own format (or plain text, where its vendor takes it) and leaves the others out.
 */
export interface ReasoningBlock {
  type: 'reasoning';
  /** The reasoning text, or its summary when `summary` is set. */
  text?: string;
  summary?: boolean;
  /** The vendor's signature over `text`. */
  signature?: string;
  /** Opaque reasoning state: Anthropic redacted thinking, OpenAI encrypted content, a Gemini part's signature. */
  data?: string;
  /** Whose state this is: `anthropic-claude-v1`, `google-gemini-v1`, `openai-responses-v1`, ... */
  format?: string;
  /** The vendor's id of the reasoning item. */
  id?: string;
  /** The tool call whose part carried this state (Gemini signs function calls). */
  callId?: string;
  /** Position among the reasoning records of one reply, as a streaming vendor numbered them (OpenRouter). */
  index?: number;
}

/** The model declined to answer (OpenAI's `refusal`). */
export interface RefusalBlock {
  type: 'refusal';
  text: string;
}

/**
 * A web search the vendor ran itself for a hosted `web_search` tool (Anthropic's server tool, Gemini's Google Search):
 * what it searched and what it found. The answer's text cites the pages (TextBlock.citations). Output only: no vendor
 * takes another's search back, so a replayed conversation leaves it out.
 */
export interface WebSearchBlock {
  type: 'web_search';
  /** The vendor's id of the search (`srvtoolu_…`), or one the adapter made. */
  id: string;
  /** `failed` when the vendor reported an error instead of results. */
  status: 'completed' | 'failed';
  queries: string[];
  /** The pages found, in the vendor's order. */
  sources: Array<{ url: string; title?: string }>;
}

export type UserBlock = TextBlock | ImageBlock | DocumentBlock | ToolResultBlock;
export type AssistantBlock = TextBlock | ReasoningBlock | ToolCallBlock | RefusalBlock;
