// What Gemini takes of the client's tools on the translated lane (tool-lowering/): function names that start with a
// letter or `_`, of up to 64 letters, digits, `_`, `.` and `-`; a web search as Gemini's Google Search grounding
// (`googleSearch`). Gemini before 3 cannot combine Google Search with function declarations in one request (the
// API refuses it), so there a web search is left out when the request has function tools. Other hosted tools have no
// Gemini equivalent here and are left out.
import type { AdapterContext } from '../adapter.js';
import type { ToolPolicy } from '../tool-lowering/lower-tools.js';
import { GEMINI_TOOL_NAMES } from '../tool-lowering/vendor-tool-names.js';
import { hostedLabel, isWebSearch } from '../tool-lowering/web-search.js';
import { geminiModelInfo, isGemini3OrLater } from './model-family.js';

/** The hosted tool's name for Gemini's Google Search (convert-request.ts sends it as `{googleSearch: {}}`). */
export const GOOGLE_SEARCH = 'google_search';

export function geminiToolPolicy(ctx: AdapterContext): ToolPolicy {
  return {
    names: GEMINI_TOOL_NAMES,
    hosted(tool, tools) {
      if (!isWebSearch(tool) && tool.name !== GOOGLE_SEARCH)
        return { drop: `gemini provider ${ctx.provider.id} has no hosted ${hostedLabel(tool)}` };
      const withFunctions = tools.some((other) => other.type !== 'hosted' || other.name === 'tool_search');
      if (withFunctions && !isGemini3OrLater(geminiModelInfo(ctx.model.upstreamModel))) {
        return { drop: `${ctx.model.upstreamModel} cannot combine Google Search with function tools` };
      }
      return { serve: { type: 'hosted', name: GOOGLE_SEARCH, config: {} } };
    },
  };
}
