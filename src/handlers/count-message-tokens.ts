// POST /messages/count_tokens — the prompt's token count: Anthropic's own counter for models served by a native
// Anthropic upstream, else (and when that counter fails) the gateway's estimate. Free and not recorded: nothing
// is generated. Authenticated like every route, so the counter is not an open proxy to the operator's key, and
// counted against the key's requests per minute like any other call (with no tokens: it generates none).
import type { Deps } from '../deps.js';
import type { Handler } from '../http/openapi-router.js';
import { principalOf } from '../http/authenticate.js';
import { abortOnDisconnect } from '../http/abort-on-disconnect.js';
import { resolveTarget } from '../routing/resolve-target.js';
import { estimatePromptTokens } from '../routing/token-estimate/estimate-tokens.js';
import { buildCountTokensRequest, readCountTokens } from '../providers/anthropic/count-tokens.js';
import type { Target } from '../routing/resolve-target.js';
import type { ChatCompletionRequest } from '../core/chat-types.js';
import { toInternalPrompt } from '../formats/messages/convert-request.js';
import { gatewayModelId } from '../formats/messages/model-name.js';
import { anthropicClientHeaders } from '../formats/messages/client-headers.js';
import type { MessagesCountTokensRequest } from '../formats/messages/wire-types.js';
import { admitRequestRate } from '../limits/admit-rate.js';
import { checkModelAllowed } from '../auth/authorize-route.js';

export function countMessageTokens(deps: Deps): Handler {
  return async (api, ctx) => {
    const principal = principalOf(ctx);
    const body = api.request.requestBody as MessagesCountTokensRequest;
    const request = toInternalPrompt(body, gatewayModelId(deps.catalog, body.model));
    const target = resolveTarget(deps.catalog, deps.providers, deps.adapters, request.model);
    // The key's allow-list holds here as on every model call: Anthropic's counter runs on the operator's key.
    checkModelAllowed(principal, target.entry.id);
    const admitted = admitRequestRate(deps, principal, 0);
    ctx.set(admitted instanceof Promise ? await admitted : admitted);
    const counted = target.provider.kind === 'anthropic' ? await countUpstream(deps, ctx, target, request) : undefined;
    ctx.body = { input_tokens: counted ?? estimatePromptTokens(request) };
  };
}

async function countUpstream(deps: Deps, ctx: Parameters<Handler>[1], target: Target, request: ChatCompletionRequest): Promise<number | undefined> {
  const client = abortOnDisconnect(ctx);
  try {
    const adapterCtx = { provider: target.provider, model: target.model, stream: false, clientHeaders: anthropicClientHeaders(ctx) };
    const response = await deps.http.send(buildCountTokensRequest(request, adapterCtx), client.signal);
    if (response.status !== 200) {
      response.body.destroy();
      deps.logger.warn({ provider: target.provider.id, status: response.status }, 'count_tokens upstream failed; answering the estimate');
      return undefined;
    }
    return readCountTokens(await response.body.json());
  } catch (err) {
    deps.logger.warn({ provider: target.provider.id, err: (err as Error)?.message }, 'count_tokens upstream failed; answering the estimate');
    return undefined;
  } finally {
    client.dispose();
  }
}
