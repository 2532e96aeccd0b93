// Step 3: rules the OpenAPI schema cannot express, checked before anything is reserved or sent upstream.
import type { CatalogEntry } from '../catalog/types.js';
import { GatewayError } from '../core/gateway-error.js';
import { estimatePromptTokens } from './token-estimate/estimate-tokens.js';
import type { ChatCompletionRequest } from '../core/chat-types.js';

export interface CheckedRequest {
  /** Generous prompt estimate, reused for the credit reservation. */
  estimatedPromptTokens: number;
}

export function hasImage(request: ChatCompletionRequest): boolean {
  return request.messages.some((message) => {
    const content = (message as { content?: unknown }).content;
    return Array.isArray(content) && content.some((part: { type?: string }) => part?.type === 'image_url');
  });
}

/** PDF `file` parts (a Messages `document` with a PDF source becomes one). */
export function hasFile(request: ChatCompletionRequest): boolean {
  return request.messages.some((message) => {
    const content = (message as { content?: unknown }).content;
    return Array.isArray(content) && content.some((part: { type?: string }) => part?.type === 'file');
  });
}

export function requireUserMessage(request: ChatCompletionRequest): void {
  if (!request.messages.some((message) => message.role === 'user')) {
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

export function checkRequest(request: ChatCompletionRequest, model: CatalogEntry): CheckedRequest {
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
  if (!model.supportsTools && (request.tools?.length ?? 0) > 0) {
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
