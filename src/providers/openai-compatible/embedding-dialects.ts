// Per-vendor differences of the OpenAI-compatible embeddings APIs (`POST {base}/embeddings`), as data: a vendor
// whose API differs is a new entry here, not new code. Chosen by the same vendor profile as the chat dialect
// (vendors.ts), so `quirks.vendor` applies to both.
import type { ProviderConfig } from '../adapter.js';
import { resolveVendorProfile } from './vendors.js';

export interface EmbeddingDialect {
  /** The request field that sets the vector length. */
  dimensionsField: 'dimensions' | 'output_dimension';
  /** Token ids are accepted as input (OpenAI's tokenizer). */
  tokenInput: boolean;
  /** The vendor takes `user`. */
  acceptsUser: boolean;
  /** The vendor takes `encoding_format: "base64"`; the answer is then decoded only when the client wants floats. */
  base64: boolean;
}

/** OpenAI's API, which OpenAI-compatible servers (vLLM, proxies) follow; a vendor that ignores `base64` still works. */
const OPENAI: EmbeddingDialect = { dimensionsField: 'dimensions', tokenInput: true, acceptsUser: true, base64: true };

const DIALECTS: Readonly<Record<string, EmbeddingDialect>> = {
  openai: OPENAI,
  // Mistral (https://docs.mistral.ai/api/endpoint/embeddings): texts only, `output_dimension`, no `user` (it rejects
  // unknown fields with 422).
  mistral: { dimensionsField: 'output_dimension', tokenInput: false, acceptsUser: false, base64: true },
};

export function embeddingDialect(provider: Pick<ProviderConfig, 'id' | 'quirks'>): EmbeddingDialect {
  return DIALECTS[resolveVendorProfile(provider).id] ?? OPENAI;
}
