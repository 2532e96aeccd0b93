// What one request did, gathered while it runs and turned into its generation record once, at settlement.
import {
  generatedChars,
  type FinishReason,
  type NormalizedUsage,
  type OutputBlock,
  type StreamEvent,
} from '../core/generation.js';
import { estimateTokensForChars } from '../routing/token-estimate/estimate-tokens.js';
import { maxToolUses, type ToolUses } from '../core/tool-uses.js';
import { mergeServed, type ServedOptions } from '../core/served-options.js';
import { RandomBytePool } from './random-byte-pool.js';

export type GenerationOutcome = 'success' | 'error' | 'aborted';

const idBytes = new RandomBytePool();

/** `gen-<ms since epoch>-<10 random bytes, base64url>`. */
export function newGenerationId(): string {
  return `gen-${Date.now()}-${idBytes.base64url(10)}`;
}

export class GenerationMeter {
  readonly id = newGenerationId();
  readonly startedAt: number;
  firstTokenAt?: number;
  upstreamId?: string;
  usage?: NormalizedUsage;
  finishReason?: FinishReason;
  /** The stop sequence that ended generation, when the provider said which. */
  stopSequence?: string;
  outcome: GenerationOutcome = 'success';
  httpStatus = 200;
  errorCode?: string;
  errorMessage?: string;
  /** Characters generated so far; the basis of the estimate when a stream ends before the upstream reported usage. */
  private generatedChars = 0;
  /**
   * Web searches the answer showed so far (the vendor bills each): counted into the estimate when the stream ends
   * before the upstream reported usage. The vendor's own count, once reported, is in `usage`.
   */
  private searchesSeen = 0;
  /** Uses of the other hosted tools the answer showed so far, counted into the estimate likewise. */
  private toolUsesSeen: ToolUses | undefined;
  /** The price options the answer said it served before its usage (Anthropic's message_start), billed likewise. */
  private served: ServedOptions | undefined;
  /** The price options the attempt in progress asked for: the estimate's when the answer said none. */
  private requested: ServedOptions | undefined;

  constructor(
    readonly estimatedPromptTokens: number,
    private readonly clock: () => number = Date.now,
  ) {
    this.startedAt = this.clock();
  }

  observe(event: StreamEvent): void {
    switch (event.type) {
      case 'upstream-id':
        this.upstreamId ??= event.id;
        break;
      case 'usage':
        this.usage = event.usage;
        break;
      case 'finish':
        this.finishReason = event.finishReason;
        if (event.stopSequence !== undefined) this.stopSequence = event.stopSequence;
        break;
      case 'error':
        this.fail(200, event.code, event.message);
        break;
      case 'web-search':
        // One event per search call (Anthropic); Gemini's one event for all its queries counts at least one.
        this.searchesSeen += 1;
        break;
      default:
        this.generated(generatedChars(event));
    }
  }

  /** A whole (non-streamed) reply's output: its text, reasoning and tool calls count as generated. */
  observeOutput(output: readonly OutputBlock[]): void {
    let chars = 0;
    for (const block of output) {
      if (block.type === 'tool_call') chars += block.name.length + block.input.length;
      else if (block.type !== 'web_search') chars += block.text?.length ?? 0;
    }
    this.generated(chars);
  }

  /** Characters generated (text, reasoning, tool input): the first marks the time to first token. */
  generated(chars: number): void {
    if (chars <= 0) return;
    this.firstTokenAt ??= this.clock();
    this.generatedChars += chars;
  }

  /** A native reader's count of the web searches its answer showed so far (cumulative). */
  observeWebSearches(count: number): void {
    if (count > this.searchesSeen) this.searchesSeen = count;
  }

  get webSearchesSeen(): number {
    return this.searchesSeen;
  }

  /** A native reader's count of the other hosted tools' uses its answer showed so far (cumulative). */
  observeToolUses(uses: ToolUses): void {
    this.toolUsesSeen = maxToolUses(this.toolUsesSeen, uses);
  }

  get toolUsesSeenSoFar(): ToolUses | undefined {
    return this.toolUsesSeen;
  }

  /** A native reader's report of the price options its answer served. */
  observeServed(served: ServedOptions): void {
    this.served = mergeServed(this.served, served);
  }

  get servedSeen(): ServedOptions | undefined {
    return this.served;
  }

  /** The price options the attempt in progress sent upstream (the estimate's, until the answer tells). */
  expectServed(requested: ServedOptions | undefined): void {
    this.requested = requested;
  }

  fail(httpStatus: number, code: string, message: string): void {
    this.outcome = 'error';
    this.httpStatus = httpStatus;
    this.errorCode = code;
    this.errorMessage = message;
    this.finishReason = 'error';
  }

  /** Forgets what a failed attempt left behind (routing tries another endpoint): it generated nothing billable. */
  resetAttempt(): void {
    this.firstTokenAt = undefined;
    this.upstreamId = undefined;
    this.usage = undefined;
    this.finishReason = undefined;
    this.outcome = 'success';
    this.httpStatus = 200;
    this.errorCode = undefined;
    this.errorMessage = undefined;
    this.generatedChars = 0;
    this.searchesSeen = 0;
    this.toolUsesSeen = undefined;
    this.served = undefined;
  }

  abort(): void {
    if (this.outcome === 'success') this.outcome = 'aborted';
    this.errorCode ??= 'client_disconnected';
  }

  /**
   * The client left, and the upstream, which may have generated tokens it never streamed, was cut before it reported
   * its usage: `estimate` is billed in its place (upstream-link.ts), and the record says so.
   */
  billEstimate(estimate: NormalizedUsage, why: string): void {
    this.usage = estimate;
    this.abort();
    this.errorMessage = why;
  }

  /** Generated text so far, as tokens (~4 characters a token). */
  get generatedTokens(): number {
    return estimateTokensForChars(this.generatedChars);
  }

  /** Upstream-reported usage when there is one; otherwise an estimate of what was consumed. */
  finalUsage(): NormalizedUsage {
    // The served options may come apart from the usage (every chat chunk, Anthropic's message_start).
    if (this.usage) return this.served && !this.usage.served ? { ...this.usage, served: this.served } : this.usage;
    const estimate: NormalizedUsage = {
      promptTokens: this.estimatedPromptTokens,
      completionTokens: this.generatedTokens,
      cachedTokens: 0,
      cacheWriteTokens: 0,
      reasoningTokens: 0,
    };
    if (this.searchesSeen > 0) estimate.webSearchRequests = this.searchesSeen;
    if (this.toolUsesSeen) estimate.toolUses = this.toolUsesSeen;
    const served = this.served ?? this.requested;
    if (served) estimate.served = served;
    return estimate;
  }

  get usageIsEstimated(): boolean {
    return this.usage === undefined;
  }

  latencyMs(): number {
    return Math.max(0, Math.round(this.clock() - this.startedAt));
  }

  timeToFirstTokenMs(): number | undefined {
    return this.firstTokenAt === undefined ? undefined : Math.round(this.firstTokenAt - this.startedAt);
  }
}
