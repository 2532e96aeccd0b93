// Hosted tools a vendor runs itself and bills per use on top of the tokens, other than web search (which has its own
// count, `webSearchRequests`, and its own catalog key, OpenRouter's `web_search`, since issue 37's first part). Each is
// billed in the unit its vendor bills it:
//   file_search       OpenAI Responses: one per `file_search_call` item (a call).
//   code_interpreter  OpenAI Responses: one per 1 GB of each container the answer's `code_interpreter_call` items ran
//                     in and the request did not name (a 4 GB container counts 4; OpenAI prices containers by size,
//                     0.03 USD a GB).
//   code_execution    Anthropic: one per container the answer ran code execution in, billed Anthropic's 5-minute
//                     minimum of its container-hour price.
//   maps_grounding    Gemini: one per prompt grounded with Google Maps.

export const HOSTED_TOOL_FEES = ['file_search', 'code_interpreter', 'code_execution', 'maps_grounding'] as const;

export type HostedToolFee = (typeof HOSTED_TOOL_FEES)[number];

/** Billed uses per hosted tool, in each tool's unit (above); a tool absent or 0 was not billed. */
export type ToolUses = Partial<Record<HostedToolFee, number>>;

/**
 * What the reader of an answer must know of the request to bill its hosted tools as the vendor does (the answer does
 * not say it): computed by the door from the request, carried to the native lane's reader.
 */
export interface ToolBilling {
  /**
   * OpenAI code interpreter: containers the request names in its tool (`container: "cntr_…"`) or that earlier turns
   * of its input ran in (`code_interpreter_call.container_id`): created, and billed, before this request.
   */
  knownContainers?: readonly string[];
  /** OpenAI code interpreter: GB of a container the request's tool creates (`memory_limit`); absent: 1 (OpenAI's default). */
  containerGb?: number;
  /** Anthropic code execution is free with it: the request offers web search or web fetch of version 20260209 or later. */
  codeExecutionFree?: boolean;
}

/** The larger count of each tool (readers report cumulative counts, the latest never below the earlier). */
export function maxToolUses(a: ToolUses | undefined, b: ToolUses | undefined): ToolUses | undefined {
  if (!a || !hasToolUses(a)) return b && hasToolUses(b) ? b : undefined;
  if (!b || !hasToolUses(b)) return a;
  const out: ToolUses = {};
  for (const tool of HOSTED_TOOL_FEES) {
    const n = Math.max(a[tool] ?? 0, b[tool] ?? 0);
    if (n > 0) out[tool] = n;
  }
  return out;
}

export function hasToolUses(uses: ToolUses | undefined): uses is ToolUses {
  return uses !== undefined && HOSTED_TOOL_FEES.some((tool) => (uses[tool] ?? 0) > 0);
}

/** The uses with a count above 0, or undefined when none: what a record keeps. */
export function billedToolUses(uses: ToolUses | undefined): ToolUses | undefined {
  if (!hasToolUses(uses)) return undefined;
  const out: ToolUses = {};
  for (const tool of HOSTED_TOOL_FEES) if ((uses[tool] ?? 0) > 0) out[tool] = uses[tool];
  return out;
}
