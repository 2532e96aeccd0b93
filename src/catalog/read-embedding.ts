// The `embedding` block of a catalog entry: it makes the entry an embedding model (POST /embeddings) and says which
// vector sizes it returns. An embedding model has one endpoint and no output side: the fields of chat models that
// describe generation (output cap, capabilities, further endpoints, output prices) are refused rather than ignored.
import { fail, readInteger, readObject, rejectUnknownKeys, type JsonObject } from './read-fields.js';
import type { EmbeddingSpec, ModelPricing } from './types.js';

const EMBEDDING_KEYS = ['default_dimensions', 'min_dimensions', 'max_dimensions'];
/** Fields of a chat model that an embedding model may not carry (capabilities may be given, as false). */
const CHAT_ONLY_KEYS = ['max_output_tokens', 'endpoints', 'tiers', 'unsupported_parameters'];
const CAPABILITIES = ['supports_reasoning', 'supports_images', 'supports_tools'];

export function readEmbedding(entry: JsonObject, where: string): EmbeddingSpec {
  const obj = readObject(entry.embedding, `${where} embedding`);
  rejectUnknownKeys(obj, EMBEDDING_KEYS, `${where} embedding`);
  for (const key of CHAT_ONLY_KEYS) {
    if (entry[key] !== undefined) fail(where, `${key} is not allowed on an embedding model`);
  }
  for (const key of CAPABILITIES) {
    if (entry[key] !== undefined && entry[key] !== false)
      fail(where, `${key} must be false (or absent) on an embedding model`);
  }
  const defaultDimensions = readInteger(obj, 'default_dimensions', `${where} embedding`, 1);
  // Without a range the model returns its one size: `dimensions` may only repeat it.
  const minDimensions =
    obj.min_dimensions === undefined ? defaultDimensions : readInteger(obj, 'min_dimensions', `${where} embedding`, 1);
  const maxDimensions =
    obj.max_dimensions === undefined ? defaultDimensions : readInteger(obj, 'max_dimensions', `${where} embedding`, 1);
  if (!(minDimensions <= defaultDimensions && defaultDimensions <= maxDimensions)) {
    fail(
      `${where} embedding`,
      `min_dimensions <= default_dimensions <= max_dimensions must hold (${minDimensions}, ${defaultDimensions}, ${maxDimensions})`,
    );
  }
  return { defaultDimensions, minDimensions, maxDimensions };
}

/** An embedding model is billed per input token only. */
export function checkEmbeddingPricing(pricing: ModelPricing, where: string): void {
  if (pricing.base.output !== 0n)
    fail(where, 'pricing.output must be 0 on an embedding model (it generates no tokens)');
}
