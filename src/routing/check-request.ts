// Step 3: rules the OpenAPI schema cannot express, checked before anything is reserved or sent upstream.
import type { CatalogEntry } from '../catalog/types.js';
import { GatewayError } from '../core/gateway-error.js';
import { estimatePromptTokens } from './token-estimate/estimate-tokens.js';
import type { DocumentBlock, UserBlock } from '../core/content-blocks.js';
import type { GenerationRequest } from '../core/generation-request.js';

export interface CheckedRequest {
  /** Generous prompt estimate, reused for the credit reservation. */
  estimatedPromptTokens: number;
}

type Request = Pick<GenerationRequest, 'system' | 'messages' | 'tools'>;

/** Every block of the user turns, those inside tool results and documents included. */
function* userBlocks(request: Request): Generator<UserBlock> {
  for (const turn of request.messages) {
    if (turn.role !== 'user') continue;
    for (const block of turn.content) {
      yield block;
      if (block.type === 'tool_result') yield* block.content;
    }
  }
}

function documentImages(block: DocumentBlock): boolean {
  return block.source.kind === 'blocks' && block.source.blocks.some((inner) => inner.type === 'image');
}

export function hasImage(request: Request): boolean {
  for (const block of userBlocks(request)) {
    if (block.type === 'image' || (block.type === 'document' && documentImages(block))) return true;
  }
  return false;
}

/** Documents that are files (PDFs inline, by URL or uploaded): text documents are text. */
export function hasFile(request: Request): boolean {
  for (const block of userBlocks(request)) {
    if (block.type === 'document' && block.source.kind !== 'text' && block.source.kind !== 'blocks') return true;
  }
  return false;
}

/** A user turn that is not only tool results: something for the model to answer. */
export function requireUserMessage(request: Request): void {
  if (!request.messages.some((turn) => turn.role === 'user' && (turn.content.length === 0 || turn.content.some((block) => block.type !== 'tool_result')))) {
    throw new GatewayError(400, 'Invalid request: messages must contain at least one user message', {
      field: 'messages',
    });
  }
}

/** An embedding model answers only POST /embeddings: a chat door names the right route rather than failing upstream. */
export function requireChatModel(model: CatalogEntry): void {
  if (model.embedding) {
    throw new GatewayError(400, `Model ${model.id} is an embedding model: send it to POST /embeddings, or choose a chat model`, {
      reason: 'not_a_chat_model',
      model: model.id,
    });
  }
}

export function checkRequest(request: Request, model: CatalogEntry): CheckedRequest {
  requireChatModel(model);
  requireUserMessage(request);
  if (!model.supportsImages && hasImage(request)) {
    throw new GatewayError(400, `Model ${model.id} does not accept image input; remove image_url parts or choose a model with supports_images`, {
      reason: 'image_input_not_supported',
      model: model.id,
    });
  }
  // Every provider here reads PDFs as a vision model does (OpenAI: vision models only), so images stand for files.
  if (!model.supportsImages && hasFile(request)) {
    throw new GatewayError(400, `Model ${model.id} does not accept PDF documents; remove file parts (documents) or choose a model with supports_images`, {
      reason: 'file_input_not_supported',
      model: model.id,
    });
  }
  if (!model.supportsTools && request.tools.length > 0) {
    throw new GatewayError(400, `Model ${model.id} does not support tool calling`, {
      reason: 'tools_not_supported',
      model: model.id,
    });
  }
  const estimatedPromptTokens = estimatePromptTokens(request);
  if (estimatedPromptTokens > model.contextLength) {
    throw new GatewayError(
      400,
      `This request needs about ${estimatedPromptTokens} tokens, more than the context window of ${model.id} (${model.contextLength} tokens)`,
      { reason: 'context_length_exceeded', model: model.id, context_length: model.contextLength, estimated_prompt_tokens: estimatedPromptTokens },
    );
  }
  return { estimatedPromptTokens };
}
