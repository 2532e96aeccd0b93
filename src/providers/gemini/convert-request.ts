// GenerationRequest → one Gemini `models.generateContent` / `models.streamGenerateContent` call
// (https://ai.google.dev/api/generate-content). Only fields Gemini documents are written. Not forwarded:
// `user` (no Gemini field), `parallel_tool_calls` (no switch: Gemini decides), zero penalties (several models
// reject the penalty fields outright, and zero is the default anyway).
import type { GenerationRequest, Tool, ToolChoice } from '../../core/generation-request.js';
import type { AdapterContext, UpstreamRequest } from '../adapter.js';
import { requireTranslatableTools } from '../translatable-tools.js';
import { convertMessages } from './convert-messages.js';
import { SchemaBudget, toGeminiParameters, toGeminiSchema } from './convert-schema.js';
import { mapThinking } from './map-thinking.js';
import { geminiModelInfo, isGemini3OrLater } from './model-family.js';
import { GOOGLE_SEARCH } from './tool-policy.js';

export const GEMINI_DEFAULT_BASE_URL = 'https://generativelanguage.googleapis.com/v1beta';

/** `{base}/models/{model}:generateContent`, or `:streamGenerateContent?alt=sse` (SSE instead of a JSON array). */
export function generateContentUrl(baseUrl: string, upstreamModel: string, stream: boolean): string {
  const base = (baseUrl || GEMINI_DEFAULT_BASE_URL).replace(/\/+$/, '');
  // Tuned models are addressed as "tunedModels/x"; plain names live under "models/".
  const resource = upstreamModel.includes('/') ? upstreamModel : `models/${upstreamModel}`;
  const path = resource.split('/').map(encodeURIComponent).join('/');
  return stream ? `${base}/${path}:streamGenerateContent?alt=sse` : `${base}/${path}:generateContent`;
}

function convertTools(tools: readonly Tool[], budget: SchemaBudget): Record<string, unknown>[] {
  const functions = tools.filter((tool): tool is Tool & { type: 'function' } => tool.type === 'function');
  // Google Search grounding is a tool entry of its own (tool-policy.ts decided when it is sent).
  const search = tools.some((tool) => tool.type === 'hosted' && tool.name === GOOGLE_SEARCH)
    ? [{ googleSearch: {} }]
    : [];
  if (functions.length === 0) return search;
  const declarations = functions.map((tool) => {
    const declaration: Record<string, unknown> = { name: tool.name };
    if (tool.description) declaration.description = tool.description;
    const parameters = toGeminiParameters(tool.parameters, budget, { field: 'tools', label: `tool ${tool.name}` });
    if (parameters) declaration.parameters = parameters;
    return declaration;
  });
  return [{ functionDeclarations: declarations }, ...search];
}

/** tool_choice → functionCallingConfig: auto → AUTO, none → NONE, required → ANY, a named function → ANY + allow-list. */
function convertToolChoice(choice: ToolChoice | undefined): Record<string, unknown> | undefined {
  switch (choice?.type) {
    case 'auto':
      return { functionCallingConfig: { mode: 'AUTO' } };
    case 'none':
      return { functionCallingConfig: { mode: 'NONE' } };
    case 'required':
      return { functionCallingConfig: { mode: 'ANY' } };
    case 'tool':
      return { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: [choice.name] } };
    default:
      return undefined;
  }
}

/** The client's cap, else the model's; never above the model's maximum. */
export function outputCap(
  request: Pick<GenerationRequest, 'maxOutputTokens'>,
  ctx: AdapterContext,
): number | undefined {
  const fromClient = request.maxOutputTokens;
  const modelMax = ctx.model.maxOutputTokens;
  if (typeof fromClient === 'number') return modelMax !== undefined ? Math.min(fromClient, modelMax) : fromClient;
  return modelMax;
}

function generationConfig(
  request: GenerationRequest,
  ctx: AdapterContext,
  budget: SchemaBudget,
): Record<string, unknown> {
  const config: Record<string, unknown> = {};
  if (typeof request.temperature === 'number') config.temperature = request.temperature;
  if (typeof request.topP === 'number') config.topP = request.topP;
  if (typeof request.topK === 'number') config.topK = request.topK;
  const cap = outputCap(request, ctx);
  if (cap !== undefined) config.maxOutputTokens = cap;
  const stop = request.stop ?? [];
  if (stop.length > 0) config.stopSequences = stop;
  if (typeof request.seed === 'number') config.seed = request.seed;
  if (typeof request.presencePenalty === 'number' && request.presencePenalty !== 0)
    config.presencePenalty = request.presencePenalty;
  if (typeof request.frequencyPenalty === 'number' && request.frequencyPenalty !== 0)
    config.frequencyPenalty = request.frequencyPenalty;
  const format = request.responseFormat;
  if (format?.type === 'json_object' || format?.type === 'json_schema') {
    config.responseMimeType = 'application/json';
    if (format.type === 'json_schema' && format.schema !== undefined)
      config.responseSchema = toGeminiSchema(format.schema, budget);
  }
  const thinking = mapThinking(request.reasoning, ctx.model.upstreamModel, ctx.model.supportsReasoning, cap);
  if (thinking) config.thinkingConfig = thinking;
  return config;
}

export function buildBody(request: GenerationRequest, ctx: AdapterContext): Record<string, unknown> {
  requireTranslatableTools(request, `${ctx.model.id} at ${ctx.provider.id}`, (name) => name === GOOGLE_SEARCH);
  const signaturesRequired = isGemini3OrLater(geminiModelInfo(ctx.model.upstreamModel));
  const { systemInstruction, contents } = convertMessages(request, { signaturesRequired });
  const body: Record<string, unknown> = { contents };
  if (systemInstruction) body.systemInstruction = systemInstruction;
  // One budget for every schema of the request: many small recursive schemas must not add up to a huge body either.
  const budget = new SchemaBudget();
  if (request.tools.length > 0) {
    body.tools = convertTools(request.tools, budget);
    // Function calling settings mean nothing (and `ANY` is refused) without a function to call.
    const toolConfig = request.tools.some((tool) => tool.type === 'function')
      ? convertToolChoice(request.toolChoice)
      : undefined;
    if (toolConfig) body.toolConfig = toolConfig;
  }
  const config = generationConfig(request, ctx, budget);
  if (Object.keys(config).length > 0) body.generationConfig = config;
  return body;
}

export function buildRequest(request: GenerationRequest, ctx: AdapterContext): UpstreamRequest {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  for (const [name, value] of Object.entries(ctx.provider.headers ?? {})) headers[name.toLowerCase()] = value;
  // The operator's key only; set last so no configured header can replace it.
  if (ctx.provider.apiKey) headers['x-goog-api-key'] = ctx.provider.apiKey;
  return {
    method: 'POST',
    url: generateContentUrl(ctx.provider.baseUrl, ctx.model.upstreamModel, ctx.stream),
    headers,
    body: JSON.stringify(buildBody(request, ctx)),
  };
}
