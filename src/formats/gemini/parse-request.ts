// A Gemini GenerateContentRequest → the internal GenerationRequest (the translated lane).
// functionDeclarations → function tools (`parametersJsonSchema` as is, `parameters` from Gemini's Schema); Google
// Search → the hosted web search (Google's grounding for Gemini, Anthropic's web search for Claude); Google's other
// tools (codeExecution, urlContext, ...) → hosted tools under their Gemini names, which a vendor without them leaves
// out with a warning; toolConfig AUTO/ANY/NONE → auto/required/none, ANY with one allowed name →
// that tool; generationConfig → sampling, output cap, stop, seed, penalties, JSON output (responseJsonSchema or
// responseSchema) and reasoning: thinkingBudget 0 off, -1 on at the model's default, N a budget; thinkingLevel → the
// effort; includeThoughts false → reasoning excluded. Other top-level fields (safetySettings, cachedContent, ...) ride
// in extraFields, which only a Google upstream would know.
import type {
  FunctionTool,
  GenerationRequest,
  ReasoningRequest,
  ResponseFormat,
  Tool,
  ToolChoice,
} from '../../core/generation-request.js';
import { parseContents, parseSystemInstruction } from './parse-contents.js';
import { invalidRequest } from './parse-parts.js';
import { jsonSchemaOfGemini } from './schema-case.js';
import type {
  GeminiContent,
  GeminiGenerateContentRequest,
  GeminiGenerationConfig,
  GeminiThinkingConfig,
  GeminiTool,
  GeminiToolConfig,
} from './wire-types.js';

const MAPPED_FIELDS = new Set(['contents', 'systemInstruction', 'tools', 'toolConfig', 'generationConfig']);

/** The prompt part of a request, shared with countTokens. */
export interface GeminiPrompt {
  contents: GeminiContent[];
  systemInstruction?: GeminiContent;
  tools?: GeminiTool[];
  toolConfig?: GeminiToolConfig;
}

/** Google's tools by the gateway's hosted-tool names: Google Search is the web search every door asks for by name. */
const HOSTED_NAMES: Readonly<Record<string, string>> = { googleSearch: 'web_search' };

function tools(wire: readonly GeminiTool[]): Tool[] {
  return wire.flatMap((tool, i) =>
    Object.entries(tool).flatMap(([key, value]): Tool[] => {
      if (key !== 'functionDeclarations')
        return value === undefined
          ? []
          : [{ type: 'hosted', name: HOSTED_NAMES[key] ?? key, config: (value ?? {}) as Record<string, unknown> }];
      if (!Array.isArray(value))
        throw invalidRequest(`tools[${i}].functionDeclarations must be a list`, `tools[${i}].functionDeclarations`);
      return (value as GeminiTool['functionDeclarations'] & object).map((declaration) => {
        const out: FunctionTool = { type: 'function', name: declaration.name };
        if (declaration.description) out.description = declaration.description;
        const parameters =
          declaration.parametersJsonSchema ??
          (declaration.parameters ? jsonSchemaOfGemini(declaration.parameters) : undefined);
        if (parameters !== undefined && parameters !== null) out.parameters = parameters as Record<string, unknown>;
        return out;
      });
    }),
  );
}

function toolChoice(config: GeminiToolConfig | undefined): ToolChoice | undefined {
  const calling = config?.functionCallingConfig;
  switch (calling?.mode?.toUpperCase()) {
    case 'AUTO':
    case 'VALIDATED':
      return { type: 'auto' };
    case 'NONE':
      return { type: 'none' };
    case 'ANY': {
      const names = calling.allowedFunctionNames ?? [];
      return names.length === 1 ? { type: 'tool', name: names[0] } : { type: 'required' };
    }
    default:
      return undefined;
  }
}

const LEVELS = new Set(['minimal', 'low', 'medium', 'high']);

function reasoning(config: GeminiThinkingConfig | undefined): ReasoningRequest | undefined {
  if (!config) return undefined;
  const out: ReasoningRequest = {};
  const budget = config.thinkingBudget;
  const level = config.thinkingLevel?.toLowerCase();
  if (budget === 0) return { enabled: false };
  if (typeof budget === 'number' && budget > 0) out.budgetTokens = budget;
  else if (budget === -1) out.enabled = true;
  if (level !== undefined && LEVELS.has(level)) out.effort = level as ReasoningRequest['effort'];
  // includeThoughts: true only asks to see the thoughts of a model that thinks; it turns nothing on.
  if (config.includeThoughts === false && Object.keys(out).length > 0) out.exclude = true;
  return Object.keys(out).length > 0 ? out : undefined;
}

function responseFormat(config: GeminiGenerationConfig): ResponseFormat | undefined {
  if (config.responseMimeType?.toLowerCase() !== 'application/json') return undefined;
  // Gemini CLI's classifier sends its responseJsonSchema with Schema's upper-case types (OBJECT, STRING): lower-cased,
  // as a JSON Schema has them; a proper JSON Schema is unchanged by it.
  const given = config.responseJsonSchema ?? config.responseSchema;
  const schema = given === undefined || given === null ? undefined : jsonSchemaOfGemini(given);
  return schema !== undefined && schema !== null
    ? { type: 'json_schema', name: 'response', schema: schema as Record<string, unknown> }
    : { type: 'json_object' };
}

export function parseGeminiPrompt(body: GeminiPrompt, model: string, stream = false): GenerationRequest {
  const request: GenerationRequest = {
    model,
    system: parseSystemInstruction(body.systemInstruction),
    messages: parseContents(body.contents),
    tools: tools(body.tools ?? []),
    stream,
  };
  const choice = toolChoice(body.toolConfig);
  if (choice) request.toolChoice = choice;
  return request;
}

export function parseGeminiRequest(
  body: GeminiGenerateContentRequest,
  model: string,
  stream: boolean,
): GenerationRequest {
  const request = parseGeminiPrompt(body, model, stream);
  const config = body.generationConfig ?? {};
  if (typeof config.maxOutputTokens === 'number') request.maxOutputTokens = config.maxOutputTokens;
  if (typeof config.temperature === 'number') request.temperature = config.temperature;
  if (typeof config.topP === 'number') request.topP = config.topP;
  if (typeof config.topK === 'number') request.topK = config.topK;
  if (config.stopSequences?.length) request.stop = config.stopSequences;
  if (typeof config.seed === 'number') request.seed = config.seed;
  if (typeof config.presencePenalty === 'number') request.presencePenalty = config.presencePenalty;
  if (typeof config.frequencyPenalty === 'number') request.frequencyPenalty = config.frequencyPenalty;
  const format = responseFormat(config);
  if (format) request.responseFormat = format;
  const wanted = reasoning(config.thinkingConfig);
  if (wanted) request.reasoning = wanted;
  const extras = Object.entries(body).filter(([name, value]) => !MAPPED_FIELDS.has(name) && value !== undefined);
  if (extras.length > 0) request.extraFields = Object.fromEntries(extras);
  return request;
}
