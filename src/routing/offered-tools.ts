// Reading the hosted tools a request offers, for the reservations of their fees (web-search-reservation.ts,
// tool-fee-reservation.ts): the request is the client's, so every member is checked before it is read.

export type OfferedTool = Readonly<Record<string, unknown>>;

/** The objects of a list (a request's `tools` or `input`); anything else in it, or a list that is not one, is none. */
export function records(list: unknown): OfferedTool[] {
  return Array.isArray(list)
    ? list.filter((item): item is OfferedTool => typeof item === 'object' && item !== null && !Array.isArray(item))
    : [];
}

/** A client's cap on uses (`max_uses`, `max_tool_calls`), when it is a non-negative integer. */
export function cap(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}

/** A Responses request's tools: its `tools`, and those Codex adds in `additional_tools` items of its input. */
export function responsesTools(tools: unknown, input: unknown): OfferedTool[] {
  return [
    ...records(tools),
    ...records(input)
      .filter((item) => item.type === 'additional_tools')
      .flatMap((item) => records(item.tools)),
  ];
}

/** Whether a Gemini request's tools offer one of these (Google accepts camelCase and snake_case names). */
export function offersGeminiTool(tools: unknown, names: readonly string[]): boolean {
  return records(tools).some((tool) => names.some((name) => tool[name] !== undefined && tool[name] !== null));
}
