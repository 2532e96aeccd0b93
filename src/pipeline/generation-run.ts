// The state of one generation between admission and settlement, whatever front door it came through: its meter,
// its client signal, and the steps that call the upstream and read its answer, on the lane each attempt takes: native
// (the client's request and the upstream's answer pass as they are, native-lane.ts) or translated (the door's
// internal request through the endpoint's adapter, its answer as internal results or stream events). It knows no
// wire format and no HTTP framework. Settlement runs exactly once, whatever happened before.
import type { AdapterContext } from '../providers/adapter.js';
import type { OutgoingRequest, UpstreamResponse } from '../providers/http-client.js';
import { GatewayError } from '../core/gateway-error.js';
import type { GenerationRequest } from '../core/generation-request.js';
import type { StreamEvent } from '../core/generation.js';
import type { GenerationIdentity, GenerationTotals, StreamEnd } from '../core/stream-renderer.js';
import { callUpstream } from './call-upstream.js';
import type { NativeAnswerContext, NativeProtocol } from '../providers/native/native-protocol.js';
import type { Redact } from '../providers/redact-credentials.js';
import { nativeLaneOf } from './native-lane.js';
import type { NativeStreamEnd } from './native-stream.js';
import { nativeAllowed, type JsonAnswer, type OpenedStream } from './generation-door.js';
import { guardAnswer } from './guarded-answer.js';
import { openWithinWindow } from './failover-window.js';
import { GenerationMeter } from './generation-meter.js';
import type { Target } from '../routing/resolve-target.js';
import { estimateTokensForChars } from '../routing/token-estimate/estimate-tokens.js';
import { UpstreamLink } from './upstream-link.js';
import type { GenerationParts } from './generation-parts.js';
import { cutOffEstimate } from './cut-off-estimate.js';
import { candidateSpend } from './candidate-spend.js';
import type { GenerationAttempt } from '../db/tables/generations.js';
import { endpointKeyOf, runAttempts } from './run-attempts.js';
import type { GenerationRunInput } from './generation-run-input.js';
import type { AnswerAttempt } from './read-answer.js';
import { completeNative, completeTranslated, type WholeAnswerRun } from './whole-answer.js';
import { nativeTextStream, translatedStream, type StreamRun } from './streamed-answer.js';
import { credentialRedact, nativeAnswerContext } from './answer-context.js';
import { releasePrompt } from './release-prompt.js';
import { adapterContextFor } from './adapter-context.js';
import { generationCostNanos } from './generation-cost.js';
import { observeLatency } from './endpoint-speed.js';
import { GenerationTokens } from './generation-tokens.js';
import { writeSettlement } from './run-settlement.js';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

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
  /** The key's token budget as this generation spends it. */
  private readonly tokens: GenerationTokens;
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
    this.tokens = new GenerationTokens(parts, input.principal, input.checked.estimatedPromptTokens);
    this.adapterCtx = adapterContextFor(undefined, input.target, input);
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
      const run = this.wholeAnswerRun();
      if (!this.native) {
        const translated = { ...run, adapter: target.adapter, adapterCtx: this.adapterCtx };
        return { lane: 'translated', ...(await completeTranslated(upstream, translated)) };
      }
      return {
        lane: 'native',
        body: await completeNative(upstream, this.native, { ...run, ctx: this.answerContext() }),
      };
    });
    // The output stage, once routing is done (a blocked answer is no failed attempt to fail over from).
    if (answer.lane === 'translated') guardAnswer(answer.completion, this.input.door.guardrails);
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
    this.adapterCtx = adapterContextFor(this.adapterCtx, target, this.input);
    const native = nativeAllowed(door)
      ? nativeLaneOf(door.protocol, target, door.wire.body, this.parts.natives)
      : undefined;
    this.native = native;
    // The native lane sends the price options the endpoint prices (the others are left out, and cost 1×).
    this.meter.expectServed(native ? this.input.facts.priceOptions : undefined);
    const send = (adapterCtx: AdapterContext, build: () => OutgoingRequest) =>
      callUpstream(
        this.parts.http,
        target.adapter,
        build,
        adapterCtx,
        this.link.signal,
        this.input.clientTrace,
        this.input.requestTrace,
      );
    let sending: Promise<UpstreamResponse>;
    // callUpstream has built the vendor request when it returns (it awaits only after handing the bytes over).
    if (native) {
      this.hidesTokens = stream && native.hidesReasoning(target.model, target.provider);
      sending = send(this.adapterCtx, () => {
        const built = native.buildRequest({
          wire: door.wire,
          provider: target.provider,
          model: target.model,
          stream,
          keepsAnswer: door.keeping !== undefined,
        });
        this.warnings = built.warnings;
        return built.request;
      });
    } else {
      this.translated ??= door.translate();
      const request = this.translated;
      // The adapters read the request's tools to restore the names they flattened (namespaces, custom tools).
      if (this.adapterCtx.tools !== request.tools) this.adapterCtx = { ...this.adapterCtx, tools: request.tools };
      // What this endpoint is not sent of the request (a hosted tool its vendor cannot run), for x-modelgate-warning.
      this.warnings = target.adapter.warnings?.(request, this.adapterCtx) ?? [];
      this.hidesTokens = stream && target.adapter.hidesReasoning?.(request, this.adapterCtx) === true;
      const ctx = this.adapterCtx;
      sending = send(ctx, () => target.adapter.buildRequest(request, ctx));
    }
    // From here the prompt lives on only in the bytes sent upstream, unless another endpoint may need it.
    if (last) this.releasePrompt();
    observeLatency(sending, target, this.parts.endpointStats);
    return sending;
  }

  /** Once no further attempt needs the prompt (release-prompt.ts). */
  private releasePrompt(): void {
    releasePrompt(this.input.door.wire, this.translated);
  }

  /** What reading a whole answer takes of this run (whole-answer.ts). */
  private wholeAnswerRun(): WholeAnswerRun & { excludeReasoning: boolean } {
    return {
      attempt: this.answerAttempt(),
      meter: this.meter,
      totals: () => this.totals(),
      excludeReasoning: this.excludeReasoning,
    };
  }

  private answerAttempt(): AnswerAttempt {
    return { provider: this.input.target.provider.id, signal: this.input.client.signal };
  }

  /** Step 6 for streams: the upstream's events, translated and metered, in batches, then how the stream ended. */
  events(upstream: UpstreamResponse, committed?: () => boolean): AsyncGenerator<StreamEvent[], StreamEnd | undefined> {
    const translator = this.input.target.adapter.createStreamTranslator(this.adapterCtx);
    const run = { ...this.streamRun(committed), upstream, excludeReasoning: this.excludeReasoning };
    return translatedStream(run, translator, this.input.door.guardrails);
  }

  /** Step 6 for streams on the native lane: the upstream's own events, metered, as SSE text batches. */
  private frames(
    upstream: UpstreamResponse,
    native: NativeProtocol,
    committed: () => boolean,
  ): AsyncGenerator<string[], NativeStreamEnd | undefined> {
    const reader = native.createStreamReader(this.answerContext());
    return nativeTextStream({ ...this.streamRun(committed), upstream }, reader, this.redact());
  }

  /** What either lane's stream takes of this run (streamed-answer.ts). */
  private streamRun(committed: (() => boolean) | undefined): StreamRun {
    return {
      committed,
      meter: this.meter,
      signal: this.input.client.signal,
      totals: () => this.totals(),
      withinTokenRate: (chars) => this.tokens.take(estimateTokensForChars(chars)),
      drain: { state: this.link, estimate: () => this.cutOffEstimate() },
      settle: () => this.settle(),
    };
  }

  /** Who answers, as the native lane's readers name it to the client (answer-context.ts). */
  private answerContext(): NativeAnswerContext {
    const { target, facts, door } = this.input;
    return nativeAnswerContext({ identity: this.identity, target, facts, door, redact: this.redact() });
  }

  private redact(): Redact {
    return credentialRedact(this.parts.redact, this.input.target);
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
    this.settling ??= writeSettlement(this.parts, {
      meter: this.meter,
      input: this.input,
      attempts: this.attempts,
      tokens: this.tokens,
      link: this.link,
      costNanos: () => this.costNanos(),
    });
    return this.settling;
  }

  private get excludeReasoning(): boolean {
    return this.input.facts.excludeReasoning === true;
  }

  private costNanos(): bigint {
    return generationCostNanos(this.meter, this.input.target.entry);
  }

  private totals(): GenerationTotals {
    return { usage: this.meter.finalUsage(), costNanos: this.costNanos(), accessMode: this.input.admission.mode };
  }
}
