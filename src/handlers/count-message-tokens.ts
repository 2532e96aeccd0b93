// POST /messages/count_tokens — the Messages door's token counter: its request is parsed into the internal prompt,
// and the count comes from the pipeline (pipeline/count-prompt-tokens.ts).
import type { Handler } from '../http/openapi-router.js';
import { generationClient } from '../http/generation-exchange.js';
import { setRateHeaders, useRateLimitHeaders } from '../http/rate-limit-exchange.js';
import { countPromptTokens, type CountParts } from '../pipeline/count-prompt-tokens.js';
import { parsePrompt } from '../formats/messages/parse-request.js';
import { gatewayModelId } from '../formats/messages/model-name.js';
import { anthropicClientHeaders } from '../formats/messages/client-headers.js';
import { messagesDoor } from '../formats/messages/door.js';
import type { MessagesCountTokensRequest } from '../formats/messages/wire-types.js';
import { requestModels } from './request-models.js';
import type { GenerationParts } from '../pipeline/generation-parts.js';
import { presetModelOf } from '../core/preset.js';
import { resolvePreset } from '../presets/resolve-preset.js';
import { messagesWithPreset } from '../formats/messages/preset-fill.js';
import type { MessagesRequest } from '../formats/messages/wire-types.js';

export function countMessageTokens(parts: CountParts & Pick<GenerationParts, 'presets'>): Handler {
  return async (api, ctx) => {
    useRateLimitHeaders(ctx, messagesDoor.rateLimitHeaders);
    const client = generationClient(ctx);
    let body = api.request.requestBody as MessagesCountTokensRequest;
    const models = requestModels(parts.catalog, ctx);
    const asked = gatewayModelId(models, body.model);
    // A preset's system prompt and tools are counted as the request through it would send them.
    const preset = await resolvePreset(parts.presets, {
      organizationId: client.principal.organizationId,
      model: asked,
    });
    if (preset) body = messagesWithPreset(body as MessagesRequest, preset.settings) as MessagesCountTokensRequest;
    const request = parsePrompt(body, models.canonical(preset ? presetModelOf(preset.settings) : asked));
    const { inputTokens, rate } = await countPromptTokens(parts, client, {
      request,
      clientHeaders: anthropicClientHeaders(ctx.headers),
    });
    setRateHeaders(ctx, rate);
    ctx.body = { input_tokens: inputTokens };
  };
}
