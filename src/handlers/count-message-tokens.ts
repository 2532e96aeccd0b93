// POST /messages/count_tokens — the Messages door's token counter: its request is parsed into the internal prompt,
// and the count comes from the pipeline (pipeline/count-prompt-tokens.ts).
import type { Deps } from '../deps.js';
import type { Handler } from '../http/openapi-router.js';
import { generationClient } from '../http/generation-exchange.js';
import { countPromptTokens } from '../pipeline/count-prompt-tokens.js';
import { toInternalPrompt } from '../formats/messages/convert-request.js';
import { gatewayModelId } from '../formats/messages/model-name.js';
import { anthropicClientHeaders } from '../formats/messages/client-headers.js';
import type { MessagesCountTokensRequest } from '../formats/messages/wire-types.js';

export function countMessageTokens(deps: Deps): Handler {
  return async (api, ctx) => {
    const client = generationClient(ctx);
    const body = api.request.requestBody as MessagesCountTokensRequest;
    const request = toInternalPrompt(body, gatewayModelId(deps.catalog, body.model));
    const { inputTokens, headers } = await countPromptTokens(deps, client, request, anthropicClientHeaders(ctx.headers));
    ctx.set(headers);
    ctx.body = { input_tokens: inputTokens };
  };
}
