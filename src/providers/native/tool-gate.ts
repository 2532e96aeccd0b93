// The hosted tools of a client's request on a native lane. The lane passes the client's tools through, so a tool its
// vendor runs and bills on top of the tokens would reach the vendor and be billed nothing unless the gateway meters
// it. A protocol keeps the tool types it knows to cost tokens only (function tools, client-run tools) or whose fees it
// meters (web search, file search, code execution: core/tool-uses.ts), and leaves every other type out, named in
// `x-modelgate-warning` as the translated lane names a hosted tool its upstream cannot serve (tool-lowering/).

export type ToolRecord = Record<string, unknown>;

/** Why a tool is left out, or undefined to send it. */
export type ToolJudge = (tool: ToolRecord) => string | undefined;

export interface GatedTools {
  /** The tools to send, in order; the same array when none is left out. */
  tools: unknown[];
  /** One sentence per tool left out. */
  warnings: string[];
}

function isTool(value: unknown): value is ToolRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The tool's type as the warning names it (its `type`, or `label` of it), bounded: a client writes it. */
function nameOf(tool: ToolRecord, label?: (tool: ToolRecord) => string): string {
  const name = label ? label(tool) : typeof tool.type === 'string' ? tool.type : JSON.stringify(tool.type ?? null);
  return name.length <= 64 ? name : `${name.slice(0, 61)}...`;
}

/** Judges each tool of `list` (anything but an object is sent as it is: the vendor answers for it). */
export function gateTools(
  list: readonly unknown[],
  judge: ToolJudge,
  label?: (tool: ToolRecord) => string,
): GatedTools {
  let kept: unknown[] | undefined;
  const warnings: string[] = [];
  list.forEach((tool, i) => {
    const reason = isTool(tool) ? judge(tool) : undefined;
    if (reason === undefined) {
      kept?.push(tool);
      return;
    }
    kept ??= list.slice(0, i);
    warnings.push(`tool ${nameOf(tool as ToolRecord, label)} dropped: ${reason}`);
  });
  return { tools: kept ?? (list as unknown[]), warnings };
}

/** A reason for a hosted tool type the protocol does not know. */
export function unknownToolReason(vendor: string): string {
  return `a hosted tool type the gateway does not know how ${vendor} bills`;
}
