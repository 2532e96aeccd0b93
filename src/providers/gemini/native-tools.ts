// The tools of a Gemini request on the native lane (native/tool-gate.ts). A Gemini tool is an object whose keys name
// the tools it declares (`{"googleSearch": {}}`, `{"functionDeclarations": [...]}`), in camelCase or snake_case. Sent:
// the tools that cost tokens only (functions, code execution, URL context, computer use, file search: Google bills
// its retrieved text as prompt tokens) and those whose fees the gateway meters (Google Search grounding, Google Maps
// grounding: grounding.ts). Left out, with a warning: any other key (Vertex's enterprise web search and retrieval,
// a tool Google adds), since the gateway does not know how Google bills it; a tool left with no key is left out.
import { unknownToolReason } from '../native/tool-gate.js';
import { isRecord } from '../payload-readers.js';

const SENT = new Set([
  'functionDeclarations',
  'function_declarations',
  'codeExecution',
  'code_execution',
  'urlContext',
  'url_context',
  'computerUse',
  'computer_use',
  'fileSearch',
  'file_search',
  'googleSearch',
  'google_search',
  'googleSearchRetrieval',
  'google_search_retrieval',
  'googleMaps',
  'google_maps',
]);

export interface GeminiToolEdits {
  /** The `tools` member to send (JSON text), when a key was left out. */
  tools?: string;
  warnings: string[];
}

export function geminiToolEdits(body: Readonly<Record<string, unknown>>): GeminiToolEdits {
  const edits: GeminiToolEdits = { warnings: [] };
  if (!Array.isArray(body.tools)) return edits;
  let changed = false;
  const tools: unknown[] = [];
  for (const tool of body.tools as unknown[]) {
    if (!isRecord(tool)) {
      tools.push(tool);
      continue;
    }
    const dropped = Object.keys(tool).filter((key) => !SENT.has(key));
    if (dropped.length === 0) {
      tools.push(tool);
      continue;
    }
    changed = true;
    for (const key of dropped) edits.warnings.push(`tool ${key.slice(0, 64)} dropped: ${unknownToolReason('Google')}`);
    const kept = Object.fromEntries(Object.entries(tool).filter(([key]) => SENT.has(key)));
    if (Object.keys(kept).length > 0) tools.push(kept);
  }
  if (changed) edits.tools = JSON.stringify(tools);
  return edits;
}
