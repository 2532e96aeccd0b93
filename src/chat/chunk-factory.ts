// Builds the gateway's ChatCompletionChunks: one id, model and created time for every chunk of a stream.
import type { ChatCompletionChunk, ChunkDelta, Usage } from './types.js';
import type { FinishReason, StreamErrorCode } from '../providers/adapter.js';

export class ChunkFactory {
  constructor(
    private readonly id: string,
    private readonly model: string,
    private readonly created: number,
  ) {}

  private chunk(delta: ChunkDelta, finishReason: FinishReason | null, extra: Partial<ChatCompletionChunk> = {}, error?: { code: StreamErrorCode; message: string }): ChatCompletionChunk {
    return {
      id: this.id,
      object: 'chat.completion.chunk',
      created: this.created,
      model: this.model,
      choices: [{ index: 0, delta, finish_reason: finishReason, ...(error ? { error } : {}) }],
      ...extra,
    } as ChatCompletionChunk;
  }

  role(): ChatCompletionChunk {
    return this.chunk({ role: 'assistant', content: '' }, null);
  }

  delta(delta: ChunkDelta): ChatCompletionChunk {
    return this.chunk(delta, null);
  }

  /** The last content chunk: finish reason and the request's usage (with cost). */
  finish(finishReason: FinishReason, usage: Usage): ChatCompletionChunk {
    return this.chunk({}, finishReason, { usage });
  }

  error(code: StreamErrorCode, message: string, usage: Usage): ChatCompletionChunk {
    return this.chunk({}, 'error', { usage }, { code, message });
  }
}
