// Builds the gateway's ChatCompletionChunks: one id, model and created time for every chunk of a stream.
import type { ChatCompletionChunk, ChunkDelta, Usage } from './wire-types.js';
import type { FinishReason, StreamErrorCode } from '../../core/generation.js';

/** What follows the delta in a content chunk's JSON. */
const DELTA_SUFFIX = ',"finish_reason":null}]}';

export class ChunkFactory {
  /** A content chunk's JSON up to its delta: the same for every chunk of the stream. */
  private readonly deltaPrefix: string;

  constructor(
    private readonly id: string,
    private readonly model: string,
    private readonly created: number,
    /** The serving provider id, a top-level `provider` in every chunk (OpenRouter does the same). */
    private readonly provider?: string,
  ) {
    // Serialized with an empty delta, `{}`, the chunk ends in `{}` + DELTA_SUFFIX; what comes before is the prefix.
    const empty = JSON.stringify(this.chunk({}, null));
    this.deltaPrefix = empty.slice(0, empty.length - '{}'.length - DELTA_SUFFIX.length);
  }

  private chunk(
    delta: ChunkDelta,
    finishReason: FinishReason | null,
    extra: Partial<ChatCompletionChunk> = {},
    error?: { code: StreamErrorCode; message: string },
  ): ChatCompletionChunk {
    return {
      id: this.id,
      object: 'chat.completion.chunk',
      created: this.created,
      model: this.model,
      ...(this.provider !== undefined ? { provider: this.provider } : {}),
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

  /**
   * `JSON.stringify(this.delta(delta))`, byte for byte, serializing only the delta: a stream sends dozens of these,
   * and building and serializing the whole chunk each time cost ~1.5 µs against ~0.2 µs.
   */
  deltaJson(delta: ChunkDelta): string {
    return `${this.deltaPrefix}${JSON.stringify(delta)}${DELTA_SUFFIX}`;
  }

  /** The last content chunk: finish reason and the request's usage (with cost). */
  finish(finishReason: FinishReason, usage: Usage): ChatCompletionChunk {
    return this.chunk({}, finishReason, { usage });
  }

  error(code: StreamErrorCode, message: string, usage: Usage): ChatCompletionChunk {
    return this.chunk({}, 'error', { usage }, { code, message });
  }
}
