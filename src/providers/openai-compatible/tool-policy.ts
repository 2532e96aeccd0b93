// What an OpenAI-compatible chat vendor takes of the client's tools on the translated lane (tool-lowering/): function
// tools only, named by OpenAI's rule (up to 64 letters, digits, `_` and `-`). Chat completions have no hosted tools
// a gateway could ask for, so every hosted tool (a web search included) is left out and named in the warning.
import type { AdapterContext } from '../adapter.js';
import type { ToolPolicy } from '../tool-lowering/lower-tools.js';
import { CHAT_TOOL_NAMES } from '../tool-lowering/vendor-tool-names.js';
import { hostedLabel } from '../tool-lowering/web-search.js';

export function chatToolPolicy(ctx: AdapterContext): ToolPolicy {
  return {
    names: CHAT_TOOL_NAMES,
    hosted: (tool) => ({ drop: `openai-compatible vendor ${ctx.provider.id} has no hosted ${hostedLabel(tool)}` }),
  };
}
