// The internal form of one embeddings request and its result, as the embeddings door builds it and every provider's
// embedding adapter consumes and produces it. No wire format lives here.

/** What to embed: texts, or token ids (tokenizer-specific; only some providers take them). Never empty. */
export type EmbeddingInputs = { kind: 'text'; texts: string[] } | { kind: 'tokens'; tokens: number[][] };

export interface EmbeddingCall {
  inputs: EmbeddingInputs;
  /** Vector length to ask the provider for; absent: the model's default (or a model whose size is fixed). */
  dimensions?: number;
  /** What the client wants back; an adapter may ask its vendor for base64 to skip the float text round trip. */
  encoding: 'float' | 'base64';
  /** The client's end-user id, for providers that take one. */
  user?: string;
}

/** One vector: numbers, or base64 of little-endian float32 values (as OpenAI sends it). */
export type EmbeddingVector = number[] | string;

/** What one upstream answer held: its vectors in input order, and the tokens the vendor counted (absent: none). */
export interface EmbeddingBatchResult {
  vectors: EmbeddingVector[];
  promptTokens?: number;
}

/** Inputs of one request at most (OpenAI's limit, which the door applies for every provider). */
export const MAX_EMBEDDING_INPUTS = 2048;

export function inputCount(inputs: EmbeddingInputs): number {
  return inputs.kind === 'text' ? inputs.texts.length : inputs.tokens.length;
}

/** The inputs from `start` (inclusive) to `end` (exclusive), of the same kind. */
export function sliceInputs(inputs: EmbeddingInputs, start: number, end: number): EmbeddingInputs {
  return inputs.kind === 'text'
    ? { kind: 'text', texts: inputs.texts.slice(start, end) }
    : { kind: 'tokens', tokens: inputs.tokens.slice(start, end) };
}
