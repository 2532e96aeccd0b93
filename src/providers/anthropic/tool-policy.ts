// What Anthropic takes of the client's tools on the translated lane (tool-lowering/): function names of up to 128
// letters, digits, `_` and `-`; a web search as Anthropic's own server tool; Anthropic's other dated server tools
// (a Messages client's) as they are; OpenAI's other hosted tools (code interpreter, file search, image generation,
// computer use, MCP, server-run tool search, local shell) have no Anthropic equivalent and are left out.
import type { AdapterContext } from '../adapter.js';
import type { ToolPolicy } from '../tool-lowering/lower-tools.js';
import { ANTHROPIC_TOOL_NAMES } from '../tool-lowering/vendor-tool-names.js';
import { anthropicWebSearch, hostedLabel, isWebSearch } from '../tool-lowering/web-search.js';

/** Anthropic's server tools are versioned by date: `web_fetch_20250910`, `code_execution_20250825`, ... */
const ANTHROPIC_SERVER_TOOL = /_\d{8}$/;

export function anthropicToolPolicy(ctx: AdapterContext): ToolPolicy {
  return {
    names: ANTHROPIC_TOOL_NAMES,
    hosted(tool) {
      if (isWebSearch(tool)) return { serve: anthropicWebSearch(tool) };
      if (ANTHROPIC_SERVER_TOOL.test(tool.name)) return { serve: tool };
      return { drop: `anthropic provider ${ctx.provider.id} has no hosted ${hostedLabel(tool)}` };
    },
  };
}
