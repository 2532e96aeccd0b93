// The Messages stream: message_start … per block content_block_start, content_block_delta (text_delta,
// thinking_delta, signature_delta, input_json_delta), content_block_stop … message_delta (stop reason, usage),
// message_stop; `event: ping` while the upstream is silent; a failure after the start is `event: error`. Every
// internal event is rendered as it arrives (the shared sequencer holds no text back).
import type { StreamEvent } from '../../core/generation.js';
import type { GenerationIdentity, SseFrame, StreamEnd, StreamRenderer } from '../../core/stream-renderer.js';
import { OutputBlockSequencer, type BlockOp } from '../shared/output-blocks.js';
import { messagesErrorBody, streamErrorType } from './error-body.js';
import { renderOpenedBlock } from './render-blocks.js';
import { isRedacted, thinkingSignature } from './reasoning-signatures.js';
import { toMessagesUsage, toStopReason } from './wire-usage.js';

const NONE: SseFrame[] = [];

function frame(type: string, body: Record<string, unknown>): SseFrame {
  return { event: type, data: JSON.stringify({ type, ...body }) };
}

export class MessagesStreamRenderer implements StreamRenderer {
  readonly keepAlive = 'event: ping\ndata: {"type":"ping"}\n\n';
  private readonly blocks = new OutputBlockSequencer();
  /** Sequencer blocks rendered as redacted_thinking: they came whole, so no delta and no signature follows. */
  private readonly redacted = new Set<number>();
  /** Open sequencer blocks rendered as thinking: their text goes out as thinking_delta. */
  private readonly thinking = new Set<number>();

  /** `estimatedPromptTokens`: the gateway's prompt estimate (the one admission reserved for), shown in message_start. */
  constructor(
    private readonly identity: GenerationIdentity,
    private readonly estimatedPromptTokens: number,
  ) {}

  start(): SseFrame[] {
    const { id, model } = this.identity;
    // Anthropic reports the prompt's input_tokens in message_start and clients read it there (Claude Code's context
    // meter). message_start leaves before the upstream has counted anything, whatever the upstream, so it carries the
    // gateway's estimate; message_delta then carries the upstream's exact, cumulative counts (input, cache, output),
    // which replace it, as they replace Anthropic's own message_start counts. So the cache writes' lifetime split
    // (`cache_creation`, which Anthropic sends in message_start only) comes in message_delta too.
    const message = {
      id,
      type: 'message',
      role: 'assistant',
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: {
        input_tokens: this.estimatedPromptTokens,
        output_tokens: 0,
        cache_read_input_tokens: 0,
        cache_creation_input_tokens: 0,
        cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
      },
    };
    return [frame('message_start', { message })];
  }

  event(event: StreamEvent): SseFrame[] {
    const ops = this.blocks.push(event);
    return ops.length === 0 ? NONE : ops.flatMap((op) => this.render(op));
  }

  end(end: StreamEnd): SseFrame[] {
    if (end.type === 'error') {
      return [frame('error', { error: messagesErrorBody(streamErrorType(end.code), end.message).error })];
    }
    const frames = this.blocks.finish().flatMap((op) => this.render(op));
    frames.push(
      frame('message_delta', {
        delta: {
          stop_reason: toStopReason(end.finishReason, end.stopSequence),
          stop_sequence: end.stopSequence ?? null,
        },
        usage: toMessagesUsage(end.totals.usage),
      }),
      frame('message_stop', {}),
    );
    return frames;
  }

  private render(op: BlockOp): SseFrame[] {
    const index = op.index;
    switch (op.op) {
      case 'open':
        if (op.block.type === 'reasoning') (isRedacted(op.block.records) ? this.redacted : this.thinking).add(index);
        return [frame('content_block_start', { index, content_block: renderOpenedBlock(op.block) })];
      case 'text':
        return [
          frame('content_block_delta', {
            index,
            delta: this.isThinking(index)
              ? { type: 'thinking_delta', thinking: op.text }
              : { type: 'text_delta', text: op.text },
          }),
        ];
      case 'input':
        return [
          frame('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: op.fragment } }),
        ];
      case 'signature':
        return NONE; // sent at close: the block's details (and so a non-Claude signature) are complete only then
      case 'close': {
        const frames: SseFrame[] = [];
        if (op.block.type === 'reasoning' && !this.redacted.has(index)) {
          const signature = thinkingSignature(op.block);
          if (signature !== '')
            frames.push(frame('content_block_delta', { index, delta: { type: 'signature_delta', signature } }));
        }
        this.redacted.delete(index);
        this.thinking.delete(index);
        frames.push(frame('content_block_stop', { index }));
        return frames;
      }
      case 'citation':
        return NONE; // not sequenced for this door (no `sources`)
    }
  }

  private isThinking(index: number): boolean {
    return this.thinking.has(index);
  }
}
