// The state of one chat completion between admission and settlement: its meter, its abort signal, and the
// pieces that translate the upstream answer. Settlement runs exactly once, whatever happened before.
import type { Context } from 'koa';
import type { Deps } from '../deps.js';
import type { Principal } from '../auth/principal.js';
import type { Admission } from '../billing/accounting.js';
import { costNanos } from '../billing/pricing.js';
import type { AdapterContext } from '../providers/adapter.js';
import type { UpstreamResponse } from '../providers/http-client.js';
import { GatewayError } from '../core/gateway-error.js';
import { abortOnDisconnect } from '../http/abort-on-disconnect.js';
import { callUpstream, readUpstreamJson, UpstreamHttpError } from './call-upstream.js';
import { UpstreamPayloadError } from '../providers/upstream-payload-error.js';
import type { CheckedRequest } from './check-request.js';
import { GenerationMeter } from './generation-meter.js';
import { generationRecord, trackingHeaders } from './generation-record.js';
import type { Target } from './resolve-target.js';
import { ChunkFactory } from './chunk-factory.js';
import { buildCompletion } from './build-completion.js';
import { streamCompletion } from './stream-completion.js';
import { toWireUsage } from './wire-usage.js';
import { estimateTokensForChars } from './estimate-tokens.js';
import { limitsFor } from '../limits/admit-rate.js';
import type { ChatCompletionRequest, Usage } from '../core/chat-types.js';

export interface ChatRunInput {
  principal: Principal;
  request: ChatCompletionRequest;
  target: Target;
  admission: Admission;
  stream: boolean;
  checked: CheckedRequest;
}

export class ChatRun {
  readonly meter: GenerationMeter;
  private readonly abort: ReturnType<typeof abortOnDisconnect>;
  private readonly adapterCtx: AdapterContext;
  private readonly created = Math.floor(Date.now() / 1000);
  private settled = false;
  /** Tokens taken from the key's rate budget so far: the prompt estimate at admission, then generated text. */
  private tokensCounted: number;

  constructor(
    private readonly deps: Deps,
    private readonly ctx: Context,
    private readonly input: ChatRunInput,
  ) {
    this.meter = new GenerationMeter(input.checked.estimatedPromptTokens);
    this.tokensCounted = input.checked.estimatedPromptTokens;
    this.abort = abortOnDisconnect(ctx);
    this.adapterCtx = { provider: input.target.provider, model: input.target.model, stream: input.stream };
    ctx.set('x-generation-id', this.meter.id);
  }

  callUpstream(): Promise<UpstreamResponse> {
    const { target, request } = this.input;
    // callUpstream has built the vendor request when it returns (it awaits only after handing the bytes over).
    const sending = callUpstream(this.deps.http, target.adapter, request, this.adapterCtx, this.abort.signal);
    // From here the prompt lives on only in the bytes sent upstream. Nothing after this step reads the messages,
    // while the parsed request stays referenced (Koa state, openapi-backend's context, this run) until the
    // response ends: a long prompt would stay alive, and be copied from young to old generation by the GC, for
    // the whole generation, minutes for a long stream. (64 concurrent 64 KB prompts: ~80 MB less peak RSS.)
    request.messages = [];
    return sending;
  }

  async respondJson(upstream: UpstreamResponse): Promise<void> {
    const body = await readUpstreamJson(upstream, this.input.target.provider.id);
    let result;
    try {
      result = this.input.target.adapter.parseCompletion(body, this.adapterCtx);
    } catch (err) {
      if (err instanceof UpstreamPayloadError) throw new UpstreamHttpError(err.info, this.input.target.provider.id, 200);
      throw new GatewayError(502, `Provider ${this.input.target.provider.id} returned an unexpected response`, {
        provider: this.input.target.provider.id,
        reason: 'upstream_malformed',
      });
    }
    if (result.upstreamId) this.meter.observe({ type: 'upstream-id', id: result.upstreamId });
    if (result.usage) this.meter.observe({ type: 'usage', usage: result.usage });
    this.meter.observe({ type: 'finish', finishReason: result.finishReason });
    this.meter.observe({ type: 'delta', delta: { content: result.content ?? '', reasoning: result.reasoning } });
    this.ctx.body = buildCompletion(
      result,
      { id: this.meter.id, model: this.input.target.entry.id, created: this.created, excludeReasoning: this.excludeReasoning },
      this.usage(),
    );
  }

  streamBack(upstream: UpstreamResponse): Promise<void> {
    return streamCompletion({
      ctx: this.ctx,
      upstream,
      translator: this.input.target.adapter.createStreamTranslator(this.adapterCtx),
      meter: this.meter,
      chunks: new ChunkFactory(this.meter.id, this.input.target.entry.id, this.created),
      keepAliveMs: this.deps.config.keepAliveSeconds * 1000,
      excludeReasoning: this.excludeReasoning,
      signal: this.abort.signal,
      finalUsage: () => this.usage(),
      withinTokenRate: (chars) => this.takeTokens(estimateTokensForChars(chars)),
    });
  }

  recordFailure(err: unknown): void {
    if (this.abort.signal.aborted) this.meter.abort();
    else if (err instanceof GatewayError) this.meter.fail(err.status, String(err.metadata.reason ?? err.code), err.message);
    else this.meter.fail(500, 'internal_error', (err as Error)?.message ?? 'internal error');
  }

  /** Queues the generation record and its settlement (credits or quota); resolves when committed, never rejects. */
  async settle(): Promise<void> {
    if (this.settled) return;
    this.settled = true;
    this.abort.dispose();
    try {
      await this.deps.settlements.settle(this.input.admission, this.buildRecord());
    } catch (err) {
      // Called without await from the handler's finally: it must never reject.
      this.deps.logger.error({ err, generation_id: this.meter.id }, 'could not queue settlement');
    }
  }

  private buildRecord() {
    if (this.abort.signal.aborted) this.meter.abort();
    const usage = this.meter.finalUsage();
    // Real usage replaces the estimates in the key's token budget.
    this.takeTokens(usage.promptTokens + usage.completionTokens - this.tokensCounted);
    return generationRecord({
      meter: this.meter,
      principal: this.input.principal,
      target: this.input.target,
      admission: this.input.admission,
      streamed: this.input.stream,
      costNanos: this.costNanos(),
      tracking: trackingHeaders(this.ctx),
    });
  }

  /** Counts tokens against the key's per-minute budget (the prompt estimate was taken at admission). */
  private takeTokens(tokens: number): boolean {
    if (tokens <= 0) return true;
    this.tokensCounted += tokens;
    return this.deps.limiter.consumeTokens(this.input.principal.credentialId, limitsFor(this.input.principal, this.deps.config), tokens, this.deps.now().getTime());
  }

  private get excludeReasoning(): boolean {
    return this.input.request.reasoning?.exclude === true;
  }

  private costNanos(): bigint {
    // A request that failed before the upstream generated anything costs nothing.
    if (this.meter.outcome !== 'success' && !this.meter.usage && this.meter.timeToFirstTokenMs() === undefined) return 0n;
    return costNanos(this.input.target.entry, this.meter.finalUsage());
  }

  private usage(): Usage {
    return toWireUsage(this.meter.finalUsage(), this.costNanos(), this.input.admission.mode);
  }
}
