// The output stage. A whole answer's text blocks are checked as they are; a stream's text is held back by a bounded
// window: text leaves only once it is more than HOLD_BACK_CHARS from the end of what has arrived, and never in the
// middle of something a detector matches, so an email split across chunks is still caught whole while memory and
// added latency stay bounded by the window. Any other content event (a tool call, reasoning) first releases the
// held text, so the order of the answer is kept. Reasoning and tool arguments pass unchecked.
import type { GenerationResult, StreamEvent } from '../core/generation.js';
import { checkText, GuardrailReport, spansOf } from './check-text.js';
import type { Guardrail } from '../core/guardrail.js';
import type { GuardrailSettings } from './guardrail-settings.js';

/** Characters of answer text a stream holds back: the longest match the output stage is sure to catch whole. */
export const HOLD_BACK_CHARS = 256;

interface OutputContext {
  guardrails: readonly Guardrail[];
  settings: GuardrailSettings;
}

/** A whole answer with its text checked; the report says what fired and whether one blocks. */
export function guardResult(result: GenerationResult, context: OutputContext): GuardrailReport {
  const report = new GuardrailReport();
  for (const block of result.output) {
    if (block.type === 'text') block.text = checkText(context.guardrails, block.text, { ...context, report });
  }
  return report;
}

/** A stream's text, held back by the window and checked before it leaves. */
export class StreamTextGuard {
  readonly report = new GuardrailReport();
  private pending = '';

  constructor(private readonly context: OutputContext) {}

  /** The batch as it may leave now: text held back, other events after the text before them. */
  push(events: readonly StreamEvent[]): StreamEvent[] {
    const out: StreamEvent[] = [];
    for (const event of events) {
      if (event.type === 'text-delta') {
        this.pending += event.text;
        continue;
      }
      this.releaseInto(out, true);
      out.push(event);
    }
    this.releaseInto(out, false);
    return out;
  }

  /** What is still held, checked: the stream ended. */
  flush(): StreamEvent[] {
    const out: StreamEvent[] = [];
    this.releaseInto(out, true);
    return out;
  }

  private releaseInto(out: StreamEvent[], all: boolean): void {
    if (this.pending === '') return;
    let cut = all ? this.pending.length : this.pending.length - HOLD_BACK_CHARS;
    if (cut <= 0) return;
    if (!all) {
      const spans = spansOf(this.context.guardrails, this.pending, this.context.settings);
      // A span moved back to may itself lie inside an earlier, longer one: until no span crosses the cut.
      for (let moved = true; moved; ) {
        moved = false;
        for (const span of spans) {
          if (span.start < cut && span.end > cut) {
            cut = span.start;
            moved = true;
          }
        }
      }
      if (cut <= 0) return;
    }
    const text = checkText(this.context.guardrails, this.pending.slice(0, cut), {
      ...this.context,
      report: this.report,
    });
    this.pending = this.pending.slice(cut);
    if (text !== '') out.push({ type: 'text-delta', text });
  }
}
