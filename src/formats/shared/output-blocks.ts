// The internal delta stream → an ordered sequence of output blocks, for the front doors whose formats are made of
// blocks (Anthropic Messages content blocks, OpenAI Responses output items). Internal deltas interleave fields
// freely (reasoning text, signed reasoning_details, content, tool-call fragments by index); these formats want one
// block at a time, opened, filled and closed. Format-neutral: no wire shape is made here.
//
// Rules (one block is open at a time, in the order the model produced them):
// - `reasoning` text goes to an open reasoning block, or opens one;
// - a `reasoning.text` detail with a signature seals the open reasoning block (Anthropic sends the signed block
//   when the thinking block stops; Gemini with the thought part); a sealed block takes no more text, so the next
//   reasoning opens a new block. Without an open unsealed block the detail opens one and its text is appended;
// - other `reasoning.text` / `reasoning.summary` details join the open unsealed reasoning block (their text is
//   appended only when the block has streamed none: clients such as OpenRouter send both fields);
// - a `reasoning.encrypted` detail is a block of its own (opened with it, closed at once): Anthropic
//   redacted_thinking, Gemini signatures of text parts and function calls, OpenAI encrypted reasoning;
// - `content` goes to an open text block, or opens one;
// - a tool-call fragment with an index not seen before opens a tool_call block; fragments for the open one append
//   arguments. A fragment for a call that was already closed cannot be placed in a one-block-at-a-time format and
//   is dropped (no adapter here interleaves calls: each call streams whole before the next);
// - `finish()` closes whatever is open.
// Within one delta the fields are taken in the order reasoning, reasoning_details, content, tool_calls.
import type { ChunkDelta, ReasoningDetail, ToolCall } from '../../core/chat-types.js';
import type { AdapterCompletion } from '../../core/generation.js';

export type OpenedBlock =
  | { type: 'text' }
  /** `details` holds the encrypted detail a reasoning block was opened by, else is empty. */
  | { type: 'reasoning'; details: ReasoningDetail[] }
  | { type: 'tool_call'; id: string; name: string };

export type ClosedBlock =
  | { type: 'text'; text: string }
  /** `signature`: the sealing detail's signature, when one came. `details`: every reasoning detail of the block. */
  | { type: 'reasoning'; text: string; signature?: string; details: ReasoningDetail[] }
  | { type: 'tool_call'; id: string; name: string; arguments: string };

export type BlockOp =
  | { op: 'open'; index: number; block: OpenedBlock }
  /** New text of the open text or reasoning block. */
  | { op: 'text'; index: number; text: string }
  /** The next fragment of the open tool call's JSON arguments. */
  | { op: 'arguments'; index: number; fragment: string }
  /** The open reasoning block's signature (sent once, when it is sealed). */
  | { op: 'signature'; index: number; signature: string }
  | { op: 'close'; index: number; block: ClosedBlock };

type OpenState =
  | { type: 'text'; index: number; text: string }
  | { type: 'reasoning'; index: number; text: string; signature?: string; details: ReasoningDetail[]; sealed: boolean }
  | { type: 'tool_call'; index: number; callIndex: number; id: string; name: string; arguments: string };

type Delta = Omit<ChunkDelta, 'role'>;

export class OutputBlockSequencer {
  private open: OpenState | undefined;
  private nextIndex = 0;
  private readonly seenCalls = new Set<number>();
  private readonly closed: ClosedBlock[] = [];

  /** Block operations for one internal delta, in order. */
  push(delta: Delta): BlockOp[] {
    const ops: BlockOp[] = [];
    if (delta.reasoning) this.reasoningText(delta.reasoning, ops);
    for (const detail of delta.reasoning_details ?? []) this.reasoningDetail(detail, ops);
    if (delta.content) this.content(delta.content, ops);
    for (const call of delta.tool_calls ?? []) this.toolCall(call, ops);
    return ops;
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

  private reasoningText(text: string, ops: BlockOp[]): void {
    const block = this.open?.type === 'reasoning' && !this.open.sealed ? this.open : this.openReasoning([], ops);
    block.text += text;
    ops.push({ op: 'text', index: block.index, text });
  }

  private reasoningDetail(detail: ReasoningDetail, ops: BlockOp[]): void {
    if (detail.type === 'reasoning.encrypted') {
      this.closeOpen(ops);
      this.openReasoning([detail], ops);
      this.closeOpen(ops);
      return;
    }
    const fresh = !(this.open?.type === 'reasoning' && !this.open.sealed);
    const block = fresh ? this.openReasoning([], ops) : (this.open as OpenState & { type: 'reasoning' });
    const text = detail.type === 'reasoning.text' ? detail.text : detail.type === 'reasoning.summary' ? detail.summary : undefined;
    if (typeof text === 'string' && text !== '' && block.text === '') {
      block.text = text;
      ops.push({ op: 'text', index: block.index, text });
    }
    block.details.push(detail);
    const signature = detail.type === 'reasoning.text' ? detail.signature : undefined;
    if (typeof signature === 'string' && signature !== '') {
      block.signature = signature;
      block.sealed = true;
      ops.push({ op: 'signature', index: block.index, signature });
    }
  }

  private content(text: string, ops: BlockOp[]): void {
    let block = this.open;
    if (block?.type !== 'text') {
      this.closeOpen(ops);
      block = { type: 'text', index: this.nextIndex++, text: '' };
      this.open = block;
      ops.push({ op: 'open', index: block.index, block: { type: 'text' } });
    }
    block.text += text;
    ops.push({ op: 'text', index: block.index, text });
  }

  private toolCall(call: NonNullable<Delta['tool_calls']>[number], ops: BlockOp[]): void {
    const fragment = call.function?.arguments ?? '';
    if (this.open?.type === 'tool_call' && this.open.callIndex === call.index) {
      if (fragment === '') return;
      this.open.arguments += fragment;
      ops.push({ op: 'arguments', index: this.open.index, fragment });
      return;
    }
    if (this.seenCalls.has(call.index)) return; // a closed call: see the rules above
    this.seenCalls.add(call.index);
    this.closeOpen(ops);
    const block: OpenState = {
      type: 'tool_call',
      index: this.nextIndex++,
      callIndex: call.index,
      id: call.id ?? `call_${call.index}`,
      name: call.function?.name ?? '',
      arguments: '',
    };
    this.open = block;
    ops.push({ op: 'open', index: block.index, block: { type: 'tool_call', id: block.id, name: block.name } });
    if (fragment !== '') {
      block.arguments = fragment;
      ops.push({ op: 'arguments', index: block.index, fragment });
    }
  }

  private openReasoning(details: ReasoningDetail[], ops: BlockOp[]): OpenState & { type: 'reasoning' } {
    this.closeOpen(ops);
    const block = { type: 'reasoning' as const, index: this.nextIndex++, text: '', details: [...details], sealed: false };
    this.open = block;
    ops.push({ op: 'open', index: block.index, block: { type: 'reasoning', details } });
    return block;
  }

  private closeOpen(ops: BlockOp[]): void {
    const block = this.open;
    if (!block) return;
    this.open = undefined;
    let closed: ClosedBlock;
    if (block.type === 'text') closed = { type: 'text', text: block.text };
    else if (block.type === 'tool_call') closed = { type: 'tool_call', id: block.id, name: block.name, arguments: block.arguments };
    else {
      closed = { type: 'reasoning', text: block.text, details: block.details };
      if (block.signature !== undefined) closed.signature = block.signature;
    }
    this.closed.push(closed);
    ops.push({ op: 'close', index: block.index, block: closed });
  }
}

/**
 * A whole (non-streamed) result as blocks, by the same rules as a stream: reasoning first (its details when the
 * adapter kept them, since they hold each block's own text; else the joined reasoning text), then the text, then
 * the tool calls.
 */
export function completionBlocks(completion: AdapterCompletion): readonly ClosedBlock[] {
  const sequencer = new OutputBlockSequencer();
  if (completion.reasoningDetails?.length) sequencer.push({ reasoning_details: completion.reasoningDetails });
  else if (completion.reasoning) sequencer.push({ reasoning: completion.reasoning });
  if (completion.content) sequencer.push({ content: completion.content });
  (completion.toolCalls ?? []).forEach((call: ToolCall, index) => {
    sequencer.push({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.function.name, arguments: call.function.arguments } }] });
  });
  sequencer.finish();
  return sequencer.blocks();
}
