// Internal stream events → an ordered sequence of output blocks, for the front doors whose formats are made of blocks
// (Anthropic Messages content blocks, OpenAI Responses output items), which want one block at a time: opened, filled,
// closed. Format-neutral: no wire shape is made here.
//
// Rules (one block is open at a time, in the order the model produced them):
// - reasoning text goes to an open, unsealed reasoning block, or opens one;
// - a reasoning record with a signature seals the open reasoning block (Anthropic sends the signature when the
//   thinking block stops; Gemini with the thought part): a sealed block takes no more text, so the next reasoning opens
//   a new block. Without an open unsealed block the record opens one, and its text is the block's;
// - other records with text (summaries; text records that repeat what streamed, as OpenRouter sends them) join the
//   open unsealed reasoning block, their text appended only when the block has streamed none;
// - a record of opaque data is a block of its own (opened with it, closed at once): Anthropic redacted thinking,
//   Gemini signatures of text parts and function calls, OpenAI encrypted reasoning;
// - answer text goes to an open text block, or opens one;
// - a tool call's start opens a tool_call block; its fragments append input. A fragment for a call that was already
//   closed cannot be placed in a one-block-at-a-time format and is dropped (no adapter here interleaves calls);
// - `finish()` closes whatever is open.
// With `sources` on (a door that shows them: Responses), also:
// - a web search the vendor ran is a block of its own (opened and closed at once);
// - a citation with a span is placed on the open text block, over the span's last characters (none: dropped).
import type { Citation, ToolCallKind, WebSearchBlock } from '../../core/content-blocks.js';
import type { ReasoningState, GenerationResult, StreamEvent } from '../../core/generation.js';

export type OpenedBlock =
  | { type: 'text' }
  /** `records` holds the opaque record a reasoning block was opened by, else is empty. */
  | { type: 'reasoning'; records: ReasoningState[] }
  | { type: 'tool_call'; id: string; name: string; namespace?: string; kind: ToolCallKind }
  | { type: 'web_search'; search: WebSearch };

/** A web search, without its block type. */
export type WebSearch = Omit<WebSearchBlock, 'type'>;

/** A citation placed on a text block: it covers text[start, end). */
export interface PlacedCitation {
  citation: Citation;
  start: number;
  end: number;
}

export type ClosedBlock =
  /** `citations`: with `sources` on, the citations placed on it, in order. */
  | { type: 'text'; text: string; citations?: PlacedCitation[] }
  /** `signature`: the sealing record's signature, when one came. `records`: every reasoning record of the block. */
  | { type: 'reasoning'; text: string; signature?: string; records: ReasoningState[] }
  | { type: 'tool_call'; id: string; name: string; namespace?: string; kind: ToolCallKind; input: string }
  | { type: 'web_search'; search: WebSearch };

export type BlockOp =
  | { op: 'open'; index: number; block: OpenedBlock }
  /** New text of the open text or reasoning block. */
  | { op: 'text'; index: number; text: string }
  /** The next fragment of the open tool call's input. */
  | { op: 'input'; index: number; fragment: string }
  /** The open reasoning block's signature (sent once, when it is sealed). */
  | { op: 'signature'; index: number; signature: string }
  | { op: 'close'; index: number; block: ClosedBlock }
  /** A citation placed on the open text block (`sources` on). */
  | { op: 'citation'; index: number; placed: PlacedCitation };

type OpenState =
  | { type: 'text'; index: number; text: string; citations: PlacedCitation[] }
  | { type: 'reasoning'; index: number; text: string; signature?: string; records: ReasoningState[]; sealed: boolean }
  | {
      type: 'tool_call';
      index: number;
      callIndex: number;
      id: string;
      name: string;
      namespace?: string;
      kind: ToolCallKind;
      input: string;
    };

const NONE: BlockOp[] = [];

export interface SequencerOptions {
  /** Web searches as blocks and citations on text blocks (a door that shows them). */
  sources?: boolean;
}

export class OutputBlockSequencer {
  private open: OpenState | undefined;
  private nextIndex = 0;
  private readonly seenCalls = new Set<number>();
  private readonly closed: ClosedBlock[] = [];

  constructor(private readonly options: SequencerOptions = {}) {}

  /** Block operations for one internal event, in order (none for events that are no output). */
  push(event: StreamEvent): BlockOp[] {
    switch (event.type) {
      case 'reasoning-delta':
        return event.text === '' ? NONE : this.reasoningText(event.text);
      case 'reasoning-state':
        return this.reasoningRecord(event.state);
      case 'text-delta':
        return event.text === '' ? NONE : this.text(event.text);
      case 'tool-call-start':
        return this.toolCallStart(event);
      case 'tool-call-delta':
        return this.toolCallInput(event.index, event.input);
      case 'web-search':
        return this.options.sources ? this.webSearch(event.search) : NONE;
      case 'citation':
        return this.options.sources ? this.citation(event.citation, event.span) : NONE;
      default:
        return NONE;
    }
  }

  /** Closes the open block; call once, when the stream ended. */
  finish(): BlockOp[] {
    const ops: BlockOp[] = [];
    this.closeOpen(ops);
    return ops;
  }

  /** Every block closed so far, in order (after `finish()`: the whole output). */
  blocks(): readonly ClosedBlock[] {
    return this.closed;
  }

  /** How many blocks were opened so far. */
  get count(): number {
    return this.nextIndex;
  }

  private reasoningText(text: string): BlockOp[] {
    const ops: BlockOp[] = [];
    const block = this.open?.type === 'reasoning' && !this.open.sealed ? this.open : this.openReasoning([], ops);
    block.text += text;
    ops.push({ op: 'text', index: block.index, text });
    return ops;
  }

  private reasoningRecord(record: ReasoningState): BlockOp[] {
    const ops: BlockOp[] = [];
    if (record.data !== undefined) {
      this.closeOpen(ops);
      this.openReasoning([record], ops);
      this.closeOpen(ops);
      return ops;
    }
    const fresh = !(this.open?.type === 'reasoning' && !this.open.sealed);
    const block = fresh ? this.openReasoning([], ops) : (this.open as OpenState & { type: 'reasoning' });
    const text = record.text;
    if (typeof text === 'string' && text !== '' && block.text === '') {
      block.text = text;
      ops.push({ op: 'text', index: block.index, text });
    }
    block.records.push(record);
    if (typeof record.signature === 'string' && record.signature !== '') {
      block.signature = record.signature;
      block.sealed = true;
      ops.push({ op: 'signature', index: block.index, signature: record.signature });
    }
    return ops;
  }

  private webSearch(search: WebSearch): BlockOp[] {
    const ops: BlockOp[] = [];
    this.closeOpen(ops);
    const index = this.nextIndex++;
    const block: ClosedBlock = { type: 'web_search', search };
    ops.push({ op: 'open', index, block }, { op: 'close', index, block });
    this.closed.push(block);
    return ops;
  }

  private citation(citation: Citation, span: number | undefined): BlockOp[] {
    const block = this.open;
    if (block?.type !== 'text' || span === undefined) return NONE;
    const end = block.text.length;
    const placed: PlacedCitation = { citation, start: Math.max(0, end - span), end };
    block.citations.push(placed);
    return [{ op: 'citation', index: block.index, placed }];
  }

  private text(text: string): BlockOp[] {
    const ops: BlockOp[] = [];
    let block = this.open;
    if (block?.type !== 'text') {
      this.closeOpen(ops);
      block = { type: 'text', index: this.nextIndex++, text: '', citations: [] };
      this.open = block;
      ops.push({ op: 'open', index: block.index, block: { type: 'text' } });
    }
    block.text += text;
    ops.push({ op: 'text', index: block.index, text });
    return ops;
  }

  private toolCallStart(event: StreamEvent & { type: 'tool-call-start' }): BlockOp[] {
    if (this.seenCalls.has(event.index)) return this.toolCallInput(event.index, event.input ?? '');
    this.seenCalls.add(event.index);
    const ops: BlockOp[] = [];
    this.closeOpen(ops);
    const block: OpenState = {
      type: 'tool_call',
      index: this.nextIndex++,
      callIndex: event.index,
      id: event.id,
      name: event.name,
      kind: event.kind,
      input: '',
    };
    if (event.namespace !== undefined) block.namespace = event.namespace;
    this.open = block;
    const opened: OpenedBlock = { type: 'tool_call', id: block.id, name: block.name, kind: block.kind };
    if (block.namespace !== undefined) opened.namespace = block.namespace;
    ops.push({ op: 'open', index: block.index, block: opened });
    const first = event.input ?? '';
    if (first !== '') {
      block.input = first;
      ops.push({ op: 'input', index: block.index, fragment: first });
    }
    return ops;
  }

  private toolCallInput(callIndex: number, fragment: string): BlockOp[] {
    // A fragment for a call that was closed (see the rules above), or never started, has no block to go to.
    if (fragment === '' || this.open?.type !== 'tool_call' || this.open.callIndex !== callIndex) return NONE;
    this.open.input += fragment;
    return [{ op: 'input', index: this.open.index, fragment }];
  }

  private openReasoning(records: ReasoningState[], ops: BlockOp[]): OpenState & { type: 'reasoning' } {
    this.closeOpen(ops);
    const block = {
      type: 'reasoning' as const,
      index: this.nextIndex++,
      text: '',
      records: [...records],
      sealed: false,
    };
    this.open = block;
    ops.push({ op: 'open', index: block.index, block: { type: 'reasoning', records } });
    return block;
  }

  private closeOpen(ops: BlockOp[]): void {
    const block = this.open;
    if (!block) return;
    this.open = undefined;
    let closed: ClosedBlock;
    if (block.type === 'text')
      closed =
        block.citations.length > 0
          ? { type: 'text', text: block.text, citations: block.citations }
          : { type: 'text', text: block.text };
    else if (block.type === 'tool_call') {
      closed = { type: 'tool_call', id: block.id, name: block.name, kind: block.kind, input: block.input };
      if (block.namespace !== undefined) closed.namespace = block.namespace;
    } else {
      closed = { type: 'reasoning', text: block.text, records: block.records };
      if (block.signature !== undefined) closed.signature = block.signature;
    }
    this.closed.push(closed);
    ops.push({ op: 'close', index: block.index, block: closed });
  }
}

/** The events a stream of this whole reply would have carried, in order (what a non-streamed body is made of). */
export function resultEvents(result: GenerationResult): StreamEvent[] {
  const events: StreamEvent[] = [];
  let calls = 0;
  for (const block of result.output) {
    switch (block.type) {
      case 'text':
        events.push({ type: 'text-delta', text: block.text });
        // A whole reply's citation covers the text block it came with.
        for (const citation of block.citations ?? [])
          events.push({ type: 'citation', citation, span: block.text.length });
        break;
      case 'web_search': {
        const { type: _type, ...search } = block;
        events.push({ type: 'web-search', search });
        break;
      }
      case 'refusal':
        events.push({ type: 'refusal-delta', text: block.text });
        break;
      case 'reasoning': {
        const { type: _type, ...state } = block;
        // Plain reasoning text is a delta; a record with vendor state carries its text itself.
        if (isPlainText(state)) events.push({ type: 'reasoning-delta', text: state.text ?? '' });
        else events.push({ type: 'reasoning-state', state });
        break;
      }
      case 'tool_call': {
        const start: StreamEvent = {
          type: 'tool-call-start',
          index: calls++,
          id: block.id,
          name: block.name,
          kind: block.kind,
          input: block.input,
        };
        if (block.namespace !== undefined) start.namespace = block.namespace;
        events.push(start);
        break;
      }
    }
  }
  return events;
}

function isPlainText(state: ReasoningState): boolean {
  return Object.keys(state).every((key) => key === 'text');
}

/** A whole (non-streamed) result as blocks, by the same rules as a stream. */
export function completionBlocks(result: GenerationResult, options: SequencerOptions = {}): readonly ClosedBlock[] {
  const sequencer = new OutputBlockSequencer(options);
  for (const event of resultEvents(result)) sequencer.push(event);
  sequencer.finish();
  return sequencer.blocks();
}
