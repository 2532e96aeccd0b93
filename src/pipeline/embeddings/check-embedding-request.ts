// Steps 2-3 of an embeddings request: the wire request → the internal EmbeddingCall, checked against the model
// before anything is reserved or sent: an embedding model, 1 to 2,048 inputs, none empty, none longer than the model
// takes, `dimensions` in the model's range, token ids only for providers that take them. Each refusal is a 400 that
// names the field (and the input's index).
import type { CatalogEntry, EmbeddingSpec } from '../../catalog/types.js';
import { MAX_EMBEDDING_INPUTS, type EmbeddingCall, type EmbeddingInputs } from '../../core/embedding.js';
import { GatewayError } from '../../core/gateway-error.js';
import { estimateTextTokens } from '../../routing/token-estimate/estimate-tokens.js';

type Schemas = import('../../../generated/openapi-types.js').components['schemas'];
export type EmbeddingRequestBody = Schemas['EmbeddingRequest'];

export interface CheckedEmbedding {
  call: EmbeddingCall;
  /** Tokens as the gateway counts them before the provider does: token ids exactly, text at ~4 characters a token. */
  estimatedTokens: number;
  /**
   * Tokens the provider can count at most, for the credit reservation: a text never makes more tokens than it has
   * UTF-8 bytes (byte-level tokenizers; SentencePiece falls back to bytes), and no input more than the model takes.
   */
  maxTokens: number;
}

function invalid(message: string, metadata: Record<string, unknown>): GatewayError {
  return new GatewayError(400, `Invalid request: ${message}`, metadata);
}

/** The embedding block of an embedding model, or 400 naming the right route for a chat model. */
export function requireEmbeddingModel(entry: CatalogEntry): EmbeddingSpec {
  if (entry.embedding) return entry.embedding;
  throw new GatewayError(
    400,
    `Model ${entry.id} is not an embedding model: choose one whose architecture.output_modalities is ["embeddings"] (GET /models?output_modalities=embeddings)`,
    {
      reason: 'not_an_embedding_model',
      model: entry.id,
      field: 'model',
    },
  );
}

/** OpenAI's four input forms as one list (the schema already decided which form it is). */
function readInputs(input: EmbeddingRequestBody['input']): EmbeddingInputs {
  if (typeof input === 'string') return { kind: 'text', texts: [input] };
  const list = input as unknown[];
  if (list.length === 0) throw invalid('input must not be empty', { field: 'input', reason: 'empty_input' });
  if (typeof list[0] === 'string') return { kind: 'text', texts: list as string[] };
  if (typeof list[0] === 'number') return { kind: 'tokens', tokens: [list as number[]] };
  return { kind: 'tokens', tokens: list as number[][] };
}

export function checkEmbeddingRequest(
  body: EmbeddingRequestBody,
  entry: CatalogEntry,
  acceptsTokenInput: boolean,
): CheckedEmbedding {
  const spec = requireEmbeddingModel(entry);
  const inputs = readInputs(body.input);
  const count = inputs.kind === 'text' ? inputs.texts.length : inputs.tokens.length;
  if (count > MAX_EMBEDDING_INPUTS) {
    throw invalid(`input has ${count} items; at most ${MAX_EMBEDDING_INPUTS} are embedded in one request`, {
      field: 'input',
      reason: 'too_many_inputs',
      limit: MAX_EMBEDDING_INPUTS,
    });
  }
  if (inputs.kind === 'tokens' && !acceptsTokenInput) {
    throw invalid(
      `model ${entry.id} takes text only: token ids are specific to OpenAI's tokenizer; send the text instead`,
      { field: 'input', reason: 'token_input_not_supported', model: entry.id },
    );
  }
  let estimatedTokens = 0;
  let maxTokens = 0;
  for (let index = 0; index < count; index++) {
    const tokens = inputs.kind === 'text' ? estimateTextTokens(inputs.texts[index]!) : inputs.tokens[index]!.length;
    if (tokens === 0) throw invalid(`input[${index}] is empty`, { field: `input[${index}]`, reason: 'empty_input' });
    if (tokens > entry.contextLength) {
      const counted = inputs.kind === 'text' ? `about ${tokens} tokens (~4 characters a token)` : `${tokens} tokens`;
      throw invalid(`input[${index}] has ${counted}, more than ${entry.id} takes (${entry.contextLength})`, {
        field: `input[${index}]`,
        reason: 'input_too_long',
        model: entry.id,
        max_input_tokens: entry.contextLength,
        estimated_tokens: tokens,
      });
    }
    estimatedTokens += tokens;
    maxTokens +=
      inputs.kind === 'text' ? Math.min(Buffer.byteLength(inputs.texts[index]!, 'utf8'), entry.contextLength) : tokens;
  }
  const { dimensions } = body;
  if (dimensions !== undefined && (dimensions < spec.minDimensions || dimensions > spec.maxDimensions)) {
    const allowed =
      spec.minDimensions === spec.maxDimensions
        ? `only ${spec.defaultDimensions}`
        : `${spec.minDimensions} to ${spec.maxDimensions}`;
    throw invalid(`dimensions ${dimensions} is not available for ${entry.id} (${allowed})`, {
      field: 'dimensions',
      reason: 'dimensions_not_supported',
      model: entry.id,
      min_dimensions: spec.minDimensions,
      max_dimensions: spec.maxDimensions,
    });
  }
  const call: EmbeddingCall = { inputs, encoding: body.encoding_format === 'base64' ? 'base64' : 'float' };
  // A model of one size takes no `dimensions` (Mistral's rejects the field): asking for that size is asking for
  // nothing.
  if (dimensions !== undefined && spec.minDimensions !== spec.maxDimensions) call.dimensions = dimensions;
  if (typeof body.user === 'string') call.user = body.user;
  return { call, estimatedTokens, maxTokens };
}

/** The request's tokens as estimatedTokens counts them, before the model is known (the response cache's admission). */
export function estimateEmbeddingTokens(body: EmbeddingRequestBody): number {
  const inputs = readInputs(body.input);
  return estimateInputTokens(inputs, 0, inputs.kind === 'text' ? inputs.texts.length : inputs.tokens.length);
}

/** The gateway's count of inputs `start` to `end` (exclusive), as estimatedTokens counts them. */
export function estimateInputTokens(inputs: EmbeddingInputs, start: number, end: number): number {
  let tokens = 0;
  for (let i = start; i < end; i++)
    tokens += inputs.kind === 'text' ? estimateTextTokens(inputs.texts[i]!) : inputs.tokens[i]!.length;
  return tokens;
}
