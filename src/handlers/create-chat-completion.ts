// POST /chat/completions — the eight steps of ARCHITECTURE.md, in order; each lives in its own module.
import type { Deps } from '../deps.js';
import type { Handler } from '../http/openapi-router.js';
import type { ChatCompletionRequest } from '../core/chat-types.js';
import { principalOf } from '../http/authenticate.js';
import { resolveTarget } from '../chat/resolve-target.js';
import { checkRequest } from '../chat/check-request.js';
import { wantsStream } from '../chat/stream-mode.js';
import { admitRequest } from '../billing/accounting.js';
import { admitRate } from '../limits/admit-rate.js';
import { ChatRun } from '../chat/chat-run.js';

export function createChatCompletion(deps: Deps): Handler {
  return async (api, ctx) => {
    const principal = principalOf(ctx); //                                          1 authenticate
    const request = api.request.requestBody as ChatCompletionRequest;
    const target = resolveTarget(deps.catalog, deps.providers, deps.adapters, request.model); // 2 resolve model
    const checked = checkRequest(request, target.entry); //                          3 check request
    const stream = wantsStream(request.stream, ctx.get('accept'), deps.config.streamDefault);
    await admitRate(deps, ctx, principal, target.entry, checked.estimatedPromptTokens); //   4 admit: rate limits,
    const admission = await admitRequest(deps, principal, target.entry, checked.estimatedPromptTokens, //   then credits or quota
      request.max_completion_tokens ?? request.max_tokens ?? undefined);
    const run = new ChatRun(deps, ctx, { principal, request, target, admission, stream, checked });
    try {
      const upstream = await run.callUpstream(); //                                  5 call upstream
      if (stream) await run.streamBack(upstream); //                                 6+8 translate, respond (SSE)
      else await run.respondJson(upstream); //                                       6+8 translate, respond (JSON)
    } catch (err) {
      run.recordFailure(err);
      throw err;
    } finally {
      // 7 settle, exactly once. Queued, not awaited: the response does not wait for the commit, and the
      // queue is drained before shutdown closes the database.
      void run.settle();
    }
  };
}
