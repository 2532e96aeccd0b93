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
import type { GenerationParts } from '../pipeline/generation-parts.js';
import { presetModelOf } from '../core/preset.js';
import { resolvePreset } from '../presets/resolve-preset.js';
import { geminiWithPreset } from '../formats/gemini/preset-fill.js';

export function geminiCountTokens(parts: CountParts & Pick<GenerationParts, 'presets'>): Handler {
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
    const client = generationClient(ctx);
    const asked = geminiGatewayModelId(pathModel(api), models);
    // A preset's system instruction and tools are counted as the request through it would send them.
    const preset = await resolvePreset(parts.presets, {
      organizationId: client.principal.organizationId,
      model: asked,
    });
    const counted = preset ? geminiWithPreset(prompt, preset.settings) : prompt;
    const request = parseGeminiPrompt(counted, models.canonical(preset ? presetModelOf(preset.settings) : asked));
    const { inputTokens, rate } = await countPromptTokens(parts, client, {
      request,
      clientHeaders: {},
    });
    setRateHeaders(ctx, rate);
    ctx.body = { totalTokens: inputTokens };
  };
}
