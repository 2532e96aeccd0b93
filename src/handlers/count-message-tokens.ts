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

export function countMessageTokens(parts: CountParts): Handler {
  return async (api, ctx) => {
    useRateLimitHeaders(ctx, messagesDoor.rateLimitHeaders);
    const client = generationClient(ctx);
    const body = api.request.requestBody as MessagesCountTokensRequest;
    const models = requestModels(parts.catalog, ctx);
    const request = parsePrompt(body, models.canonical(gatewayModelId(models, body.model)));
    const { inputTokens, rate } = await countPromptTokens(parts, client, {
      request,
      clientHeaders: anthropicClientHeaders(ctx.headers),
    });
    setRateHeaders(ctx, rate);
    ctx.body = { input_tokens: inputTokens };
  };
}
