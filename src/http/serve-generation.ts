// The one request pipeline behind every front door (chat completions, Anthropic Messages, OpenAI Responses), in the
// order of ARCHITECTURE.md. A door parses its request into the internal (chat) request and names its renderers;
// authentication, admission, the upstream call, metering and settlement exist once, here and in src/pipeline/.
import type { Context } from 'koa';
import type { Deps } from '../deps.js';
import type { ChatCompletionRequest } from '../core/chat-types.js';
import type { CompletionRenderer, GenerationIdentity, StreamRenderer } from '../core/stream-renderer.js';
import { principalOf } from './authenticate.js';
import { abortOnDisconnect } from './abort-on-disconnect.js';
import { trackingHeaders } from './tracking-headers.js';
import { writeEventStream } from './write-event-stream.js';
import { resolveTarget } from '../pipeline/resolve-target.js';
import { checkRequest } from '../pipeline/check-request.js';
import { admitRequest } from '../billing/accounting.js';
import { admitRate } from '../limits/admit-rate.js';
import { GenerationRun } from '../pipeline/generation-run.js';
import type { ApiFormat } from '../pipeline/generation-record.js';

export interface FrontDoorRequest {
  apiFormat: ApiFormat;
  /** The door's request, parsed into the internal request. */
  request: ChatCompletionRequest;
  /** Server-Sent Events or one JSON body. */
  stream: boolean;
  renderJson: CompletionRenderer;
  createStreamRenderer: (identity: GenerationIdentity) => StreamRenderer;
  /** Protocol headers to forward to an upstream of the door's own protocol (see AdapterContext.clientHeaders). */
  clientHeaders?: Readonly<Record<string, string>>;
}

export async function serveGeneration(deps: Deps, ctx: Context, door: FrontDoorRequest): Promise<void> {
  const { request, stream } = door;
  const principal = principalOf(ctx); //                                          1 authenticate
  const target = resolveTarget(deps.catalog, deps.providers, deps.adapters, request.model); // 2 resolve model
  const checked = checkRequest(request, target.entry); //                          3 check request
  await admitRate(deps, ctx, principal, target.entry, checked.estimatedPromptTokens); //   4 admit: rate limits,
  const admission = await admitRequest(deps, principal, target.entry, checked.estimatedPromptTokens, //   then credits or quota
    request.max_completion_tokens ?? request.max_tokens ?? undefined);
  const run = new GenerationRun(deps, {
    principal, request, target, admission, stream, checked,
    client: abortOnDisconnect(ctx), tracking: trackingHeaders(ctx), apiFormat: door.apiFormat,
    clientHeaders: door.clientHeaders,
  });
  ctx.set('x-generation-id', run.identity.id);
  try {
    const upstream = await run.callUpstream(); //                                  5 call upstream
    if (stream) {
      const renderer = door.createStreamRenderer(run.identity); //                 6+8 translate, respond (SSE)
      await writeEventStream(ctx, run.events(upstream), renderer, deps.config.keepAliveSeconds * 1000);
    } else {
      const { completion, totals } = await run.complete(upstream); //              6+8 translate, respond (JSON)
      ctx.body = door.renderJson(completion, totals, run.identity);
    }
  } catch (err) {
    run.recordFailure(err);
    throw err;
  } finally {
    // 7 settle, exactly once. Queued, not awaited: the response does not wait for the commit, and the
    // queue is drained before shutdown closes the database.
    void run.settle();
  }
}
