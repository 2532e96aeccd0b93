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
import { planRoute } from '../routing/plan-route.js';
import { admitRoute } from '../pipeline/admit-route.js';
import { GenerationRun } from '../pipeline/generation-run.js';
import type { ApiFormat } from '../pipeline/generation-record.js';
import { clientTraceHeaders } from '../observability/client-trace-context.js';
import { requestTraceOf } from '../observability/request-span.js';

export interface FrontDoorRequest {
  apiFormat: ApiFormat;
  /** The door's request, parsed into the internal request. */
  request: ChatCompletionRequest;
  /** Server-Sent Events or one JSON body. */
  stream: boolean;
  renderJson: CompletionRenderer;
  /** `estimatedPromptTokens` is the prompt estimate admission used: what a format that reports prompt usage before
   *  the upstream has answered (Messages' message_start) can show. */
  createStreamRenderer: (identity: GenerationIdentity, estimatedPromptTokens: number) => StreamRenderer;
  /** Protocol headers to forward to an upstream of the door's own protocol (see AdapterContext.clientHeaders). */
  clientHeaders?: Readonly<Record<string, string>>;
}

export async function serveGeneration(deps: Deps, ctx: Context, door: FrontDoorRequest): Promise<void> {
  const { request, stream } = door;
  const principal = principalOf(ctx); //                                          1 authenticate
  // 2 resolve model → candidate endpoints (routing), 3 check request (per endpoint when routed)
  const plan = planRoute(deps, request);
  const { checked } = plan;
  // 4 admit: rate limits, then credits or quota, covering the most expensive candidate (the charge is the serving
  // endpoint's price); `models` mixing free and paid models may leave out the kind that cannot be admitted
  const { targets, admission, headers } = await admitRoute(deps, principal, plan, request.max_completion_tokens ?? request.max_tokens ?? undefined);
  ctx.set(headers);
  const target = targets[0];
  const run = new GenerationRun(deps, {
    principal, request, target, targets, admission, stream, checked,
    client: abortOnDisconnect(ctx), tracking: trackingHeaders(ctx), apiFormat: door.apiFormat,
    clientHeaders: door.clientHeaders, clientTrace: clientTraceHeaders(ctx.req.headers), requestTrace: requestTraceOf(ctx),
  });
  ctx.set('x-generation-id', run.identity.id);
  try {
    // 5 call upstream, failing over between endpoints until one answers (streams: until its first event batch)
    if (stream) {
      const { events, first } = await run.openStream(deps.config.keepAliveSeconds * 1000);
      servedBy(ctx, run);
      const renderer = door.createStreamRenderer(run.identity, checked.estimatedPromptTokens); //                 6+8 translate, respond (SSE)
      await writeEventStream(ctx, events, renderer, deps.config.keepAliveSeconds * 1000, first);
    } else {
      const { completion, totals } = await run.completeRouted(); //                6+8 translate, respond (JSON)
      servedBy(ctx, run);
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

/** Which endpoint served, for clients and logs (the body and every chunk say it too). */
function servedBy(ctx: Context, run: GenerationRun): void {
  ctx.set('x-modelgate-provider', run.identity.provider);
  ctx.set('x-modelgate-model', run.identity.model);
}
