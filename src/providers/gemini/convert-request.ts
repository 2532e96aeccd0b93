// Gateway ChatCompletionRequest → one Gemini `models.generateContent` / `models.streamGenerateContent` call
// (https://ai.google.dev/api/generate-content). Only fields Gemini documents are written. Not forwarded:
// `user` (no Gemini field), `parallel_tool_calls` (no switch: Gemini decides), zero penalties (several models
// reject the penalty fields outright, and zero is the default anyway).
import type { ChatCompletionRequest, ToolDefinition } from '../../core/chat-types.js';
import type { AdapterContext, UpstreamRequest } from '../adapter.js';
import { convertMessages } from './convert-messages.js';
import { SchemaBudget, toGeminiParameters, toGeminiSchema } from './convert-schema.js';
import { mapThinking } from './map-thinking.js';
import { geminiModelInfo, isGemini3OrLater } from './model-family.js';

export const GEMINI_DEFAULT_BASE_URL = 'https://generativelanguage.googleapis.com/v1beta';

/** `{base}/models/{model}:generateContent`, or `:streamGenerateContent?alt=sse` (SSE instead of a JSON array). */
export function generateContentUrl(baseUrl: string, upstreamModel: string, stream: boolean): string {
  const base = (baseUrl || GEMINI_DEFAULT_BASE_URL).replace(/\/+$/, '');
  // Tuned models are addressed as "tunedModels/x"; plain names live under "models/".
  const resource = upstreamModel.includes('/') ? upstreamModel : `models/${upstreamModel}`;
  const path = resource.split('/').map(encodeURIComponent).join('/');
  return stream ? `${base}/${path}:streamGenerateContent?alt=sse` : `${base}/${path}:generateContent`;
}

function convertTools(tools: readonly ToolDefinition[], budget: SchemaBudget): Record<string, unknown>[] {
  const declarations = tools.map((tool) => {
    const declaration: Record<string, unknown> = { name: tool.function.name };
    if (tool.function.description) declaration.description = tool.function.description;
    const parameters = toGeminiParameters(tool.function.parameters, budget, { field: 'tools', label: `tool ${tool.function.name}` });
    if (parameters) declaration.parameters = parameters;
    return declaration;
  });
  return [{ functionDeclarations: declarations }];
}

/** tool_choice → functionCallingConfig: auto → AUTO, none → NONE, required → ANY, a named function → ANY + allow-list. */
function convertToolChoice(choice: ChatCompletionRequest['tool_choice']): Record<string, unknown> | undefined {
  if (choice === undefined || choice === null) return undefined;
  if (choice === 'auto') return { functionCallingConfig: { mode: 'AUTO' } };
  if (choice === 'none') return { functionCallingConfig: { mode: 'NONE' } };
  if (choice === 'required') return { functionCallingConfig: { mode: 'ANY' } };
  if (typeof choice === 'object' && choice.type === 'function') {
    return { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: [choice.function.name] } };
  }
  return undefined;
}

/** The client's cap (max_completion_tokens wins), else the model's; never above the model's maximum. */
export function outputCap(request: ChatCompletionRequest, ctx: AdapterContext): number | undefined {
  const fromClient = request.max_completion_tokens ?? request.max_tokens ?? undefined;
  const modelMax = ctx.model.maxOutputTokens;
  if (typeof fromClient === 'number') return modelMax !== undefined ? Math.min(fromClient, modelMax) : fromClient;
  return modelMax;
}

function generationConfig(request: ChatCompletionRequest, ctx: AdapterContext, budget: SchemaBudget): Record<string, unknown> {
  const config: Record<string, unknown> = {};
  if (typeof request.temperature === 'number') config.temperature = request.temperature;
  if (typeof request.top_p === 'number') config.topP = request.top_p;
  const cap = outputCap(request, ctx);
  if (cap !== undefined) config.maxOutputTokens = cap;
  const stop = typeof request.stop === 'string' ? [request.stop] : (request.stop ?? []);
  if (stop.length > 0) config.stopSequences = stop;
  if (typeof request.seed === 'number') config.seed = request.seed;
  if (typeof request.presence_penalty === 'number' && request.presence_penalty !== 0) config.presencePenalty = request.presence_penalty;
  if (typeof request.frequency_penalty === 'number' && request.frequency_penalty !== 0) config.frequencyPenalty = request.frequency_penalty;
  // openapi-typescript types response_format loosely (Omit<..., "type">); the wire value has `type`.
  const format = request.response_format as { type?: string; json_schema?: { schema?: unknown } } | undefined;
  if (format?.type === 'json_object' || format?.type === 'json_schema') {
    config.responseMimeType = 'application/json';
    if (format.type === 'json_schema' && format.json_schema?.schema !== undefined) config.responseSchema = toGeminiSchema(format.json_schema.schema, budget);
  }
  const thinking = mapThinking(request.reasoning, ctx.model.upstreamModel, ctx.model.supportsReasoning, cap);
  if (thinking) config.thinkingConfig = thinking;
  return config;
}

export function buildBody(request: ChatCompletionRequest, ctx: AdapterContext): Record<string, unknown> {
  const signaturesRequired = isGemini3OrLater(geminiModelInfo(ctx.model.upstreamModel));
  const { systemInstruction, contents } = convertMessages(request.messages, { signaturesRequired });
  const body: Record<string, unknown> = { contents };
  if (systemInstruction) body.systemInstruction = systemInstruction;
  // One budget for every schema of the request: many small recursive schemas must not add up to a huge body either.
  const budget = new SchemaBudget();
  if (request.tools && request.tools.length > 0) {
    body.tools = convertTools(request.tools, budget);
    const toolConfig = convertToolChoice(request.tool_choice);
    if (toolConfig) body.toolConfig = toolConfig;
  }
  const config = generationConfig(request, ctx, budget);
  if (Object.keys(config).length > 0) body.generationConfig = config;
  return body;
}

export function buildRequest(request: ChatCompletionRequest, ctx: AdapterContext): UpstreamRequest {
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
