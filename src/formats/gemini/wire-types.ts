// The Gemini door's wire types, taken from the OpenAPI document that spec/gemini/ emits.
export type {
  GeminiGenerateContentRequest,
  GeminiCountTokensRequest,
  GeminiContent,
  GeminiPart,
  GeminiTool,
  GeminiToolConfig,
  GeminiGenerationConfig,
  GeminiThinkingConfig,
  GeminiGenerateContentResponse,
  GeminiUsageMetadata,
  GeminiErrorResponse,
  GeminiModel,
  GeminiModelList,
} from '../../../generated/openapi-types.js';
