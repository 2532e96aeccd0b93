// The chat-completions stream: role chunk … one chunk per output event … the finish (or error) chunk carrying usage
// … [DONE].
import type { StreamEvent } from '../../core/generation.js';
import type { GenerationIdentity, SseFrame, StreamEnd, StreamRenderer } from '../../core/stream-renderer.js';
import { ChunkFactory } from './chunk-factory.js';
import { DeltaRenderer } from './render-delta.js';
import { toWireUsage } from './wire-usage.js';

const NONE: SseFrame[] = [];

export class ChatStreamRenderer implements StreamRenderer {
  readonly keepAlive = ': keep-alive\n\n';
  private readonly chunks: ChunkFactory;
  private readonly deltas = new DeltaRenderer();

  constructor(identity: GenerationIdentity) {
    this.chunks = new ChunkFactory(identity.id, identity.model, identity.created, identity.provider);
  }

  start(): SseFrame[] {
    return [{ data: JSON.stringify(this.chunks.role()) }];
  }

  event(event: StreamEvent): SseFrame[] {
    const delta = this.deltas.delta(event);
    return delta ? [{ data: this.chunks.deltaJson(delta) }] : NONE;
  }

  end(end: StreamEnd): SseFrame[] {
    const usage = toWireUsage(end.totals.usage, end.totals.costNanos, end.totals.accessMode);
    const last =
      end.type === 'error'
        ? this.chunks.error(end.code, end.message, usage)
        : this.chunks.finish(end.finishReason, usage);
    return [{ data: JSON.stringify(last) }, { data: '[DONE]' }];
  }
}
