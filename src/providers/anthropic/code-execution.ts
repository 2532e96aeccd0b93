// Anthropic's code execution, billed by container time on top of the tokens, and Anthropic's Messages report no time:
// the gateway charges each container an answer ran in Anthropic's 5-minute minimum (catalog `code_execution`, per
// container-hour; billing/pricing.ts). An answer ran in a container when the Message names one (`container`, set
// when a container tool ran; in a stream, message_delta's `delta.container`) or shows a code execution server tool
// call (`code_execution`, `bash_code_execution`, `text_editor_code_execution`), as a stream cut before message_delta
// does. One Message has one container. Nothing is charged when the request made code execution free (web search or
// web fetch of version 20260209 or later: ToolBilling.codeExecutionFree).
import type { ToolBilling, ToolUses } from '../../core/tool-uses.js';
import { isRecord, readArray, readRecord, readString } from '../payload-readers.js';

const CODE_EXECUTION_TOOLS = new Set(['code_execution', 'bash_code_execution', 'text_editor_code_execution']);

/** A content block (or content_block_start's block) that is a code execution server tool call. */
export function isCodeExecutionCall(block: unknown): boolean {
  return isRecord(block) && block.type === 'server_tool_use' && CODE_EXECUTION_TOOLS.has(String(block.name));
}

/** The container a Message (or message_delta's delta) names, if any. */
export function containerOf(holder: unknown): string | undefined {
  return readString(readRecord(readRecord(holder)?.container)?.id);
}

/** The code execution an answer is billed: one container when it ran in one, unless the request made it free. */
export function codeExecutionUses(ranInContainer: boolean, billing: ToolBilling | undefined): ToolUses | undefined {
  return ranInContainer && billing?.codeExecutionFree !== true ? { code_execution: 1 } : undefined;
}

/** Whether a whole Message ran in a container. */
export function messageRanInContainer(message: Record<string, unknown>): boolean {
  return containerOf(message) !== undefined || (readArray(message.content) ?? []).some(isCodeExecutionCall);
}
