// Internal stream events → Gemini response parts, in the order the model produced them, for the stream (each batch's
// parts make a chunk) and for the whole answer (the same events of a GenerationResult). Rules:
// - answer text → `{text}`; reasoning text → `{text, thought: true}`; a refusal → text;
// - a tool call → one `{functionCall: {id, name, args}}` part once its input is complete (Gemini sends calls whole;
//   other providers stream the arguments in fragments, so the call is held until the next event or the end);
// - Gemini's own signatures go back on the part they came on: a signed thought closes with its signature, a text
//   signature goes on the next text part (or a part of its own), a call's on that call;
// - every other provider's reasoning state (Claude thinking signatures, OpenAI encrypted reasoning) is collected and
//   put, in the gateway's encoding, on the reply's first function call (which Gemini CLI replays), or at the end on a
//   thought part of its own.
import type { ReasoningState, StreamEvent } from '../../core/generation.js';
import { hasReasoningState } from '../shared/reasoning-details.js';
import { encodeForeignReasoning, isGeminiRecord } from './reasoning-signatures.js';
import type { GeminiPart } from './wire-types.js';

interface OpenCall {
  id: string;
  name: string;
  input: string;
}

/** Tool arguments are JSON text inside; an object here. Anything else (a provider's malformed arguments) is `{}`. */
function argsOf(input: string): Record<string, unknown> {
  if (input.trim() === '') return {};
  try {
    const parsed: unknown = JSON.parse(input);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

export class GeminiPartAssembler {
  private call: OpenCall | undefined;
  private textSignature: string | undefined;
  private readonly callSignatures = new Map<string, string>();
  private foreign: ReasoningState[] = [];
  /** Reasoning text streamed since the last reasoning record: a signed thought's text is not sent twice, and a
   *  signature that comes without its text (a vendor that streamed the text apart) is kept with it. */
  private streamedThought = '';

  /**
   * `whole`: the events are a whole answer's (resultEvents), where a record carries its own text and the reasoning
   * deltas before it are other, unsigned thoughts; in a stream, a record seals the text streamed just before it.
   */
  constructor(private readonly whole = false) {}

  push(event: StreamEvent): GeminiPart[] {
    if (event.type === 'tool-call-delta') {
      if (this.call) this.call.input += event.input;
      return [];
    }
    const parts: GeminiPart[] = [];
    if (event.type !== 'usage' && event.type !== 'upstream-id') this.closeCall(parts);
    switch (event.type) {
      case 'text-delta':
      case 'refusal-delta':
        if (event.text !== '') parts.push(this.withTextSignature({ text: event.text }));
        break;
      case 'reasoning-delta':
        if (event.text !== '') {
          this.streamedThought += event.text;
          parts.push({ text: event.text, thought: true });
        }
        break;
      case 'reasoning-state':
        this.record(event.state, parts);
        break;
      case 'tool-call-start':
        this.flushTextSignature(parts);
        this.call = { id: event.id, name: event.name, input: event.input ?? '' };
        break;
      default:
        break;
    }
    return parts;
  }

  /** The parts still held: an open call, a signature that found no text, foreign reasoning that found no call. */
  finish(): GeminiPart[] {
    const parts: GeminiPart[] = [];
    this.closeCall(parts);
    this.flushTextSignature(parts);
    if (this.foreign.length > 0) {
      parts.push({ text: '', thought: true, thoughtSignature: encodeForeignReasoning(this.foreign) });
      this.foreign = [];
    }
    return parts;
  }

  private record(state: ReasoningState, parts: GeminiPart[]): void {
    const streamedText = this.whole ? '' : this.streamedThought;
    const streamed = streamedText !== '';
    this.streamedThought = '';
    if (!isGeminiRecord(state)) {
      // A record that carries its text (a whole answer's reasoning) shows it; streamed text was shown already.
      if (!streamed && state.text) parts.push({ text: state.text, thought: true });
      if (hasReasoningState(state))
        this.foreign.push(
          state.text === undefined && state.signature !== undefined && streamed
            ? { ...state, text: streamedText }
            : state,
        );
      return;
    }
    if (state.data === undefined) {
      if (state.signature)
        parts.push({ text: streamed ? '' : (state.text ?? ''), thought: true, thoughtSignature: state.signature });
      else if (!streamed && state.text) parts.push({ text: state.text, thought: true });
    } else if (state.callId !== undefined) {
      this.callSignatures.set(state.callId, state.data);
    } else {
      this.flushTextSignature(parts);
      this.textSignature = state.data;
    }
  }

  private withTextSignature(part: GeminiPart): GeminiPart {
    if (this.textSignature === undefined) return part;
    part.thoughtSignature = this.textSignature;
    this.textSignature = undefined;
    return part;
  }

  private flushTextSignature(parts: GeminiPart[]): void {
    if (this.textSignature !== undefined) parts.push(this.withTextSignature({ text: '' }));
  }

  private closeCall(parts: GeminiPart[]): void {
    const call = this.call;
    if (!call) return;
    this.call = undefined;
    const part: GeminiPart = { functionCall: { id: call.id, name: call.name, args: argsOf(call.input) } };
    let signature = this.callSignatures.get(call.id);
    if (signature === undefined && this.foreign.length > 0) {
      signature = encodeForeignReasoning(this.foreign);
      this.foreign = [];
    }
    if (signature !== undefined) part.thoughtSignature = signature;
    parts.push(part);
  }
}
