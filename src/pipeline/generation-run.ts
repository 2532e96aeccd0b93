// The state of one generation between admission and settlement, whatever front door it came through: its meter,
// its client signal, and the steps that call the upstream and read its answer, on the lane each attempt takes: native
// (the client's request and the upstream's answer pass as they are, native-lane.ts) or translated (the door's
// internal request through the endpoint's adapter, its answer as internal results or stream events). It knows no
// wire format and no HTTP framework. Settlement runs exactly once, whatever happened before.
import type { Principal } from '../auth/principal.js';
import type { Admission } from '../billing/admission.js';
import { costNanos } from '../billing/pricing.js';
import type { AdapterContext } from '../providers/adapter.js';
import type { CallSignal, UpstreamResponse } from '../providers/http-client.js';
import { UpstreamPayloadError } from '../providers/upstream-payload-error.js';
import { GatewayError } from '../core/gateway-error.js';
import type { GenerationRequest } from '../core/generation-request.js';
import type { GenerationResult, StreamEvent } from '../core/generation.js';
import type { GenerationIdentity, GenerationTotals, StreamEnd } from '../core/stream-renderer.js';
import { rateBudgetsOf } from '../limits/admit-rate.js';
import { callUpstream, readUpstreamBytes, readUpstreamJson, UpstreamHttpError } from './call-upstream.js';
import type { CheckedRequest } from '../routing/check-request.js';
import type { RequestFacts } from '../core/request-facts.js';
import type { NativeAnswerContext, NativeProtocol, NativeWire } from '../providers/native/native-protocol.js';
import type { Redact } from '../providers/redact-credentials.js';
import { nativeLaneOf, observeReading } from './native-lane.js';
import { nativeStream, type NativeStreamEnd } from './native-stream.js';
import { nativeAllowed, type GenerationDoor, type JsonAnswer, type OpenedStream } from './generation-door.js';
import { guardedStream } from './guarded-stream.js';
import { guardResult } from '../guardrails/guard-output.js';
import { addFired } from '../guardrails/door-guardrails.js';
import { guardrailBlocked } from './guardrail-block.js';
import { openWithinWindow } from './failover-window.js';
import { GenerationMeter } from './generation-meter.js';
import { generationRecord, type ApiFormat, type TrackingHeaders } from './generation-record.js';
import type { Target } from '../routing/resolve-target.js';
import { generationStream } from './generation-stream.js';
import { estimateTokensForChars } from '../routing/token-estimate/estimate-tokens.js';
import { UpstreamLink } from './upstream-link.js';
import type { GenerationParts } from './generation-parts.js';
import { cutOffEstimate } from './cut-off-estimate.js';
import { candidateSpend } from './candidate-spend.js';
import type { GenerationAttempt } from '../db/tables/generations.js';
import { endpointKeyOf, runAttempts } from './run-attempts.js';
import type { ClientTraceHeaders } from '../observability/client-trace-context.js';
import { endUpstreamAttempt } from '../observability/upstream-attempt.js';
import type { RequestTrace } from '../observability/gateway-tracer.js';

/** Drops the client's prompt, bytes and parsed body (which stays referenced until the response ends). */
function releaseWire(wire: NativeWire): void {
  wire.raw = Buffer.alloc(0);
  const body = wire.body as Record<string, unknown>;
  for (const field of ['messages', 'input', 'system', 'tools']) if (field in body) body[field] = [];
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The client's side of the exchange: aborted when it went away before the response finished. */
export interface ClientConnection {
  signal: CallSignal & { readonly aborted: boolean };
  /** Stops listening for the disconnect (called once, at settlement). */
  dispose(): void;
}

export interface GenerationRunInput {
  principal: Principal;
  door: GenerationDoor;
  facts: RequestFacts;
  /** The first candidate; the serving one once an attempt succeeded. */
  target: Target;
  /** Every candidate endpoint in the order to try them (routing); [target] when omitted. */
  targets?: readonly Target[];
  admission: Admission;
  stream: boolean;
  checked: CheckedRequest;
  client: ClientConnection;
  tracking: TrackingHeaders;
  /** The front door the request came through, kept in its generation record. */
  apiFormat: ApiFormat;
  /** The client's W3C trace context, passed upstream when the gateway does not trace itself. */
  clientTrace?: ClientTraceHeaders;
  /** The request's span (tracing on): parent of the attempt spans, annotated from the record at settlement. */
  requestTrace?: RequestTrace;
}

export class GenerationRun {
  readonly meter: GenerationMeter;
  readonly identity: GenerationIdentity;
  private adapterCtx: AdapterContext;
  /** Cancels the upstream call: at once when the client leaves, or after a bounded drain (upstream-link.ts). */
  private readonly link: UpstreamLink;
  /** The endpoint being called streams, and may bill tokens it never streams (hidden reasoning). */
  private hidesTokens = false;
  /** The settlement, once queued. */
  private settling?: Promise<void>;
  /** Every upstream attempt, kept in the generation record. */
  private readonly attempts: GenerationAttempt[] = [];
  /** Tokens taken from the key's rate budget so far: the prompt estimate at admission, then generated text. */
  private tokensCounted: number;
  /** The door's internal request, once an attempt took the translated lane. */
  private translated?: GenerationRequest;
  /** The native back door of the attempt in progress, or undefined when it takes the translated lane. */
  private native?: NativeProtocol;
  /**
   * For `x-modelgate-warning`: what the native lane changed of the client's request (a service tier it does not price), or
   * what the translated lane's serving endpoint was not sent (a hosted tool its vendor cannot run), one sentence each.
   */
  warnings: string[] = [];

  constructor(
    private readonly parts: GenerationParts,
    private readonly input: GenerationRunInput,
  ) {
    this.meter = new GenerationMeter(input.checked.estimatedPromptTokens);
    this.tokensCounted = input.checked.estimatedPromptTokens;
    this.adapterCtx = {
      provider: input.target.provider,
      model: input.target.model,
      stream: input.stream,
      clientHeaders: input.door.wire.clientHeaders,
    };
    this.identity = {
      id: this.meter.id,
      model: input.target.entry.id,
      provider: input.target.provider.id,
      created: Math.floor(Date.now() / 1000),
    };
    this.link = new UpstreamLink(input.client.signal, {
      boundMs: parts.config.drainOnAbortMs,
      mayHideTokens: () => this.hidesTokens,
      drains: parts.drains,
    });
  }

  /** The endpoint key of the serving endpoint once an attempt succeeded (the first candidate before). */
  get servingEndpoint(): string {
    return endpointKeyOf(this.input.target);
  }

  /** Step 5+6 for JSON: attempts endpoints until one answers; its whole answer, metered (and translated, or not). */
  async completeRouted(): Promise<JsonAnswer> {
    const answer = await this.route(async (target, last): Promise<JsonAnswer> => {
      const upstream = await this.callUpstream(target, last);
      if (!this.native) return { lane: 'translated', ...(await this.complete(upstream)) };
      return { lane: 'native', body: await this.completeNative(upstream, this.native) };
    });
    // The output stage, once routing is done (a blocked answer is no failed attempt to fail over from).
    const guardrails = this.input.door.guardrails;
    if (answer.lane === 'translated' && guardrails !== undefined && guardrails.output.length > 0) {
      const report = guardResult(answer.completion, { guardrails: guardrails.output, settings: guardrails.settings });
      addFired(guardrails, report.fired);
      if (report.blockedBy !== undefined) throw guardrailBlocked(report.blockedBy, 'answer');
    }
    return answer;
  }

  /**
   * Step 5+6 for streams: attempts endpoints until one streams its first event batch. Until then nothing has
   * reached the client, so a failure (status, connection, a stream that breaks before its first event) fails over;
   * after it, failures are the mid-stream error chunk.
   */
  openStream(failoverWindowMs: number): Promise<OpenedStream> {
    return this.route(async (target, last) => {
      // An upstream silent for longer than the window (long thinking, excluded reasoning) gets its response started,
      // so keep-alives reach the client; a failure after that is rendered in the stream.
      const window = { committed: false };
      const committed = () => window.committed;
      const upstream = await this.callUpstream(target, last);
      if (!this.native) {
        const events = this.events(upstream, committed);
        return { lane: 'translated', events, ...(await openWithinWindow(events, failoverWindowMs, window)) };
      }
      const frames = this.frames(upstream, this.native, committed);
      return { lane: 'native', frames, ...(await openWithinWindow(frames, failoverWindowMs, window)) };
    });
  }

  private async route<T>(attempt: (target: Target, last: boolean) => Promise<T>): Promise<T> {
    const { value, target, ownKeyFailure } = await runAttempts({
      targets: this.input.targets ?? [this.input.target],
      breaker: this.parts.breaker,
      limits: this.parts.config.route,
      now: Date.now,
      sleep,
      signal: this.input.client.signal,
      attempt,
      onFailedAttempt: () => this.meter.resetAttempt(),
      attempts: this.attempts,
    });
    // No further attempt needs the prompt (see callUpstream).
    this.releasePrompt();
    // Served on the gateway's key after the organization's own failed: the organization learns why (never the key).
    if (ownKeyFailure) this.warnings = [...this.warnings, ownKeyFailure];
    if (target !== this.input.target || target.provider.id !== this.identity.provider) {
      this.input.target = target;
      this.identity.model = target.entry.id;
      this.identity.provider = target.provider.id;
    }
    return value;
  }

  /** One attempt: send the request to this endpoint (status and headers). */
  private callUpstream(target: Target, last: boolean): Promise<UpstreamResponse> {
    const { door, stream } = this.input;
    this.input.target = target;
    if (
      target.provider !== this.adapterCtx.provider ||
      target.model.id !== this.adapterCtx.model.id ||
      target.model.upstreamModel !== this.adapterCtx.model.upstreamModel
    ) {
      this.adapterCtx = {
        provider: target.provider,
        model: target.model,
        stream,
        clientHeaders: door.wire.clientHeaders,
      };
    }
    const native = nativeAllowed(door)
      ? nativeLaneOf(door.protocol, target, door.wire.body, this.parts.natives)
      : undefined;
    this.native = native;
    // The native lane sends the price options the endpoint prices (the others are left out, and cost 1×).
    this.meter.expectServed(native ? this.input.facts.priceOptions : undefined);
    const { http } = this.parts;
    let sending: Promise<UpstreamResponse>;
    // callUpstream has built the vendor request when it returns (it awaits only after handing the bytes over).
    if (native) {
      this.hidesTokens = stream && native.hidesReasoning(target.model, target.provider);
      const build = () => {
        const built = native.buildRequest({
          wire: door.wire,
          provider: target.provider,
          model: target.model,
          stream,
          keepsAnswer: door.keeping !== undefined,
        });
        this.warnings = built.warnings;
        return built.request;
      };
      sending = callUpstream(
        http,
        target.adapter,
        build,
        this.adapterCtx,
        this.link.signal,
        this.input.clientTrace,
        this.input.requestTrace,
      );
      // As below for the translated request: the prompt lives on only in the bytes sent.
      if (last) this.releasePrompt();
    } else {
      this.translated ??= door.translate();
      const request = this.translated;
      // The adapters read the request's tools to restore the names they flattened (namespaces, custom tools).
      if (this.adapterCtx.tools !== request.tools) this.adapterCtx = { ...this.adapterCtx, tools: request.tools };
      // What this endpoint is not sent of the request (a hosted tool its vendor cannot run), for x-modelgate-warning.
      this.warnings = target.adapter.warnings?.(request, this.adapterCtx) ?? [];
      this.hidesTokens = stream && target.adapter.hidesReasoning?.(request, this.adapterCtx) === true;
      const ctx = this.adapterCtx;
      sending = callUpstream(
        http,
        target.adapter,
        () => target.adapter.buildRequest(request, ctx),
        ctx,
        this.link.signal,
        this.input.clientTrace,
        this.input.requestTrace,
      );
      // From here the prompt lives on only in the bytes sent upstream (unless another endpoint may need it). Nothing
      // after this step reads the messages, while the parsed request stays referenced (Koa state, openapi-backend's
      // context, this run) until the response ends: a long prompt would stay alive, and be copied from young to old
      // generation by the GC, for the whole generation, minutes for a long stream. (64 concurrent 64 KB prompts:
      // ~80 MB less peak RSS.)
      if (last) this.releasePrompt();
    }
    if ((target.entry.endpoints?.length ?? 1) > 1) {
      // Observed only where there is a choice to make (provider.sort = latency).
      const started = Date.now();
      const key = endpointKeyOf(target);
      void sending.then(
        () => this.parts.endpointStats.observeLatency(key, Date.now() - started),
        () => undefined,
      );
    }
    return sending;
  }

  /**
   * Once no further attempt needs the prompt: the client's bytes and parsed body, and the internal request when an
   * attempt translated it. The door's wire body is the same object as the native wire's body.
   */
  private releasePrompt(): void {
    releaseWire(this.input.door.wire);
    if (this.translated) {
      this.translated.messages = [];
      this.translated.system = [];
    }
  }

  /**
   * A whole upstream answer, on either lane: read, then made sense of. A body that cannot be read fails as its
   * reader says; one the lane cannot take is the vendor's error in a 200 (UpstreamPayloadError), else a 502. The
   * attempt's span (tracing on) ends here when it failed.
   */
  private async readAnswer<B, A>(
    upstream: UpstreamResponse,
    read: (provider: string) => Promise<B>,
    take: (body: B) => A,
  ): Promise<A> {
    const provider = this.input.target.provider.id;
    let body: B;
    try {
      body = await read(provider);
    } catch (err) {
      endUpstreamAttempt(upstream, { aborted: this.input.client.signal.aborted, error: err });
      throw err;
    }
    try {
      return take(body);
    } catch (err) {
      const failure =
        err instanceof UpstreamPayloadError
          ? new UpstreamHttpError(err.info, provider, 200)
          : new GatewayError(502, `Provider ${provider} returned an unexpected response`, {
              provider,
              reason: 'upstream_malformed',
            });
      endUpstreamAttempt(upstream, { error: failure });
      throw failure;
    }
  }

  /** Step 6 for JSON: the whole upstream answer, translated and metered. */
  private async complete(
    upstream: UpstreamResponse,
  ): Promise<{ completion: GenerationResult; totals: GenerationTotals }> {
    const result = await this.readAnswer(
      upstream,
      (provider) => readUpstreamJson(upstream, provider),
      (body) => this.input.target.adapter.parseCompletion(body, this.adapterCtx),
    );
    if (result.upstreamId) this.meter.observe({ type: 'upstream-id', id: result.upstreamId });
    if (result.usage) this.meter.observe({ type: 'usage', usage: result.usage });
    this.meter.observe({ type: 'finish', finishReason: result.finishReason });
    this.meter.observeOutput(result.output);
    endUpstreamAttempt(upstream, { report: this.meter });
    const completion = this.excludeReasoning
      ? { ...result, output: result.output.filter((block) => block.type !== 'reasoning') }
      : result;
    return { completion, totals: this.totals() };
  }

  /** Step 6 for JSON on the native lane: the upstream's whole answer, metered, and the bytes to send the client. */
  private async completeNative(upstream: UpstreamResponse, native: NativeProtocol): Promise<Buffer> {
    const ctx = this.answerContext();
    const answer = await this.readAnswer(
      upstream,
      (provider) => readUpstreamBytes(upstream, provider),
      (bytes) => native.readJson(bytes, ctx),
    );
    observeReading(this.meter, answer.reading);
    endUpstreamAttempt(upstream, { report: this.meter });
    // The vendor's own body goes to the client: whatever in it echoes a gateway credential is cut out.
    const body = answer.render(this.totals());
    const text = body.toString('utf8');
    const clean = ctx.redact(text);
    return clean === text ? body : Buffer.from(clean);
  }

  /** Step 6 for streams: the upstream's events, translated and metered, in batches, then how the stream ended. */
  events(upstream: UpstreamResponse, committed?: () => boolean): AsyncGenerator<StreamEvent[], StreamEnd | undefined> {
    const events = generationStream({
      committed,
      upstream,
      translator: this.input.target.adapter.createStreamTranslator(this.adapterCtx),
      meter: this.meter,
      excludeReasoning: this.excludeReasoning,
      signal: this.input.client.signal,
      totals: () => this.totals(),
      withinTokenRate: (chars) => this.takeTokens(estimateTokensForChars(chars)),
      drain: {
        state: this.link,
        estimate: () => this.cutOffEstimate(),
      },
    });
    const guardrails = this.input.door.guardrails;
    if (guardrails === undefined || guardrails.output.length === 0) return this.settledBeforeEnd(events);
    return this.settledBeforeEnd(guardedStream(events, { guardrails, meter: this.meter, totals: () => this.totals() }));
  }

  /** Step 6 for streams on the native lane: the upstream's own events, metered, as SSE text batches. */
  private frames(
    upstream: UpstreamResponse,
    native: NativeProtocol,
    committed: () => boolean,
  ): AsyncGenerator<string[], NativeStreamEnd | undefined> {
    return this.settledBeforeEnd(
      nativeStream({
        committed,
        upstream,
        reader: native.createStreamReader(this.answerContext()),
        meter: this.meter,
        signal: this.input.client.signal,
        totals: () => this.totals(),
        withinTokenRate: (chars) => this.takeTokens(estimateTokensForChars(chars)),
        redact: this.redact(),
        drain: { state: this.link, estimate: () => this.cutOffEstimate() },
      }),
      (end) => end.closing,
    );
  }

  /**
   * A stream's batches as they come; at its end, the settlement, then the frames it held back (`closing`: the native
   * lane's finish, usage and end events) and its end (from which the translated lane's writer renders the closing
   * frames). So every frame that tells the client the bill or ends the answer leaves once the bill is durable. A client
   * gone (no end) is settled by the handler. The settlement never runs inside the first step: routing may read that
   * one within its failover window, before it has recorded the attempt.
   */
  private async *settledBeforeEnd<T, E extends object>(
    stream: AsyncGenerator<T[], E | undefined>,
    closing?: (end: E) => T[] | undefined,
  ): AsyncGenerator<T[], E | undefined> {
    let yielded = false;
    try {
      for (;;) {
        const step = await stream.next();
        if (!step.done) {
          yielded = true;
          yield step.value;
          continue;
        }
        const end = step.value;
        if (end === undefined) return undefined;
        if (!yielded) yield [];
        await this.settle();
        const held = closing?.(end);
        if (held !== undefined && held.length > 0) yield held;
        return end;
      }
    } finally {
      // The writer stopped early (the client left): the upstream is released.
      await stream.return(undefined);
    }
  }

  /** Who answers, as the native lane's readers name it to the client. */
  private answerContext(): NativeAnswerContext {
    const redact = this.redact();
    const { entry, model, provider } = this.input.target;
    const ctx: NativeAnswerContext = {
      generationId: this.identity.id,
      model: entry.id,
      upstreamModel: model.upstreamModel,
      provider,
      redact,
    };
    if (this.input.facts.toolBilling) ctx.toolBilling = this.input.facts.toolBilling;
    if (this.input.door.keeping) ctx.keeping = this.input.door.keeping;
    return ctx;
  }

  /** What removes credentials from the vendor's own text: the configured ones, and the organization's own key. */
  private redact(): Redact {
    const configured: Redact = this.parts.redact ?? ((text) => text);
    const own = this.input.target.byok?.redact;
    return own === undefined ? configured : (text) => own(configured(text));
  }

  private cutOffEstimate() {
    const { facts } = this.input;
    const spend = candidateSpend(facts, this.native !== undefined);
    return cutOffEstimate(
      this.input.target.entry,
      facts.maxOutputTokens,
      this.meter,
      this.parts.config.drainOnAbortMs,
      spend,
    );
  }

  recordFailure(err: unknown): void {
    if (this.input.client.signal.aborted) this.meter.abort();
    else if (err instanceof GatewayError)
      this.meter.fail(err.status, String(err.metadata.reason ?? err.code), err.message);
    else this.meter.fail(500, 'internal_error', (err as Error)?.message ?? 'internal error');
  }

  /**
   * Queues the generation record and its settlement (credits or quota), once; resolves when it is committed, never
   * rejects. Awaited before an answer's last bytes (its usage and cost, a stream's end): no client is told a bill
   * that a crash could still lose.
   */
  settle(): Promise<void> {
    this.settling ??= this.writeSettlement();
    return this.settling;
  }

  private async writeSettlement(): Promise<void> {
    this.link.finish();
    this.input.client.dispose();
    this.observeThroughput();
    try {
      const record = this.buildRecord();
      this.input.requestTrace?.annotate(record);
      await this.parts.settlements.settle(this.input.admission, record);
    } catch (err) {
      // Called without await from the handler's finally: it must never reject.
      this.parts.logger.error({ err, generation_id: this.meter.id }, 'could not queue settlement');
    }
  }

  private buildRecord() {
    if (this.input.client.signal.aborted) this.meter.abort();
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
      tracking: this.input.tracking,
      apiFormat: this.input.apiFormat,
      attempts: this.attempts.length > 0 ? this.attempts : null,
      guardrails: this.input.door.guardrails?.fired,
    });
  }

  /** Completion tokens per second of a stream that succeeded, for provider.sort = throughput. */
  private observeThroughput(): void {
    const { target } = this.input;
    if ((target.entry.endpoints?.length ?? 1) < 2 || this.meter.outcome !== 'success' || this.meter.usageIsEstimated)
      return;
    const firstToken = this.meter.timeToFirstTokenMs();
    const generatingMs = this.meter.latencyMs() - (firstToken ?? 0);
    if (generatingMs > 0)
      this.parts.endpointStats.observeThroughput(
        endpointKeyOf(target),
        this.meter.finalUsage().completionTokens / (generatingMs / 1000),
      );
  }

  /** Counts tokens against the key's per-minute budget (the prompt estimate was taken at admission). */
  private takeTokens(tokens: number): boolean {
    if (tokens <= 0) return true;
    this.tokensCounted += tokens;
    return this.parts.limiter.consumeTokens(
      rateBudgetsOf(this.input.principal, this.parts.config),
      tokens,
      this.parts.now().getTime(),
    );
  }

  private get excludeReasoning(): boolean {
    return this.input.facts.excludeReasoning === true;
  }

  private costNanos(): bigint {
    // A request that failed before the upstream generated anything costs nothing.
    if (this.meter.outcome !== 'success' && !this.meter.usage && this.meter.timeToFirstTokenMs() === undefined)
      return 0n;
    return costNanos(this.input.target.entry, this.meter.finalUsage());
  }

  private totals(): GenerationTotals {
    return { usage: this.meter.finalUsage(), costNanos: this.costNanos(), accessMode: this.input.admission.mode };
  }
}
