// POST /gemini/v1beta/models/{model}:countTokens — the Gemini door's token counter: `contents` (or a whole
// `generateContentRequest`) parsed into the internal prompt, counted by the pipeline (pipeline/count-prompt-tokens.ts).
import type { Handler } from '../http/openapi-router.js';
import { generationClient } from '../http/generation-exchange.js';
import { setRateHeaders, useRateLimitHeaders } from '../http/rate-limit-exchange.js';
import { countPromptTokens, type CountParts } from '../pipeline/count-prompt-tokens.js';
import { GatewayError } from '../core/gateway-error.js';
import { geminiDoor } from '../formats/gemini/door.js';
import { parseGeminiPrompt } from '../formats/gemini/parse-request.js';
import { geminiGatewayModelId } from '../formats/gemini/model-name.js';
import type { GeminiCountTokensRequest } from '../formats/gemini/wire-types.js';
import { pathModel } from './gemini-path-model.js';
import { requestModels } from './request-models.js';

export function geminiCountTokens(parts: CountParts): Handler {
  return async (api, ctx) => {
    useRateLimitHeaders(ctx, geminiDoor.rateLimitHeaders);
    const body = api.request.requestBody as GeminiCountTokensRequest;
    const prompt = body.generateContentRequest ?? (body.contents ? { contents: body.contents } : undefined);
    if (!prompt || prompt.contents.length === 0) {
      throw new GatewayError(400, 'Invalid request: send contents, or a generateContentRequest with contents', {
        field: 'contents',
        reason: 'invalid_request',
      });
    }
    const models = requestModels(parts.catalog, ctx);
    const request = parseGeminiPrompt(prompt, models.canonical(geminiGatewayModelId(pathModel(api), models)));
    const { inputTokens, rate } = await countPromptTokens(parts, generationClient(ctx), {
      request,
      clientHeaders: {},
    });
    setRateHeaders(ctx, rate);
    ctx.body = { totalTokens: inputTokens };
  };
}
