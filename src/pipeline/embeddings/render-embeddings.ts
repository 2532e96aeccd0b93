// The embeddings answer in OpenAI's format (`{object: "list", data, model, usage}`), plus the gateway's generation id
// and serving provider as on chat completions, and the cost in `usage` as OpenRouter reports it.
import type { AccessMode } from '../../core/access-mode.js';
import type { EmbeddingVector } from '../../core/embedding.js';
import { nanosToUsd } from '../../core/money.js';
import { encodeVector } from './vector-encoding.js';

type Schemas = import('../../../generated/openapi-types.js').components['schemas'];
export type EmbeddingList = Schemas['EmbeddingList'];

export interface RenderedEmbeddings {
  id: string;
  model: string;
  provider: string;
  vectors: readonly EmbeddingVector[];
  encoding: 'float' | 'base64';
  promptTokens: number;
  costNanos: bigint;
  accessMode: AccessMode;
}

export function renderEmbeddings(input: RenderedEmbeddings): EmbeddingList {
  return {
    id: input.id,
    object: 'list',
    data: input.vectors.map((vector, index) => ({
      object: 'embedding',
      index,
      embedding: encodeVector(vector, input.encoding),
    })),
    model: input.model,
    provider: input.provider,
    usage: {
      prompt_tokens: input.promptTokens,
      total_tokens: input.promptTokens,
      cost: nanosToUsd(input.costNanos),
      // Pass requests would report a reference value, never a charge (no embedding model is a pass model today).
      cost_details: { access_mode: input.accessMode, charged: input.accessMode === 'credits' && input.costNanos > 0n },
    },
  };
}
