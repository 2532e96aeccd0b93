// Step 3: rules the OpenAPI schema cannot express, checked before anything is reserved or sent upstream. They read
// the request's facts (core/request-facts.ts), whatever door it came through.
import type { CatalogEntry } from '../catalog/types.js';
import { GatewayError } from '../core/gateway-error.js';
import type { RequestFacts } from '../core/request-facts.js';

export interface CheckedRequest {
  /** Generous prompt estimate, reused for the credit reservation. */
  estimatedPromptTokens: number;
}

/** A user turn that is not only tool results: something for the model to answer (RequestFacts.hasUserMessage). */
export function requireUserMessage(facts: RequestFacts): void {
  if (!facts.hasUserMessage) {
    throw new GatewayError(400, 'Invalid request: messages must contain at least one user message', {
      field: 'messages',
    });
  }
}

/** An embedding model answers only POST /embeddings: a chat door names the right route rather than failing upstream. */
export function requireChatModel(model: CatalogEntry): void {
  if (model.embedding) {
    throw new GatewayError(
      400,
      `Model ${model.id} is an embedding model: send it to POST /embeddings, or choose a chat model`,
      {
        reason: 'not_a_chat_model',
        model: model.id,
      },
    );
  }
}

export function checkRequest(facts: RequestFacts, model: CatalogEntry): CheckedRequest {
  requireChatModel(model);
  requireUserMessage(facts);
  if (!model.supportsImages && facts.hasImages) {
    throw new GatewayError(
      400,
      `Model ${model.id} does not accept image input; remove image_url parts or choose a model with supports_images`,
      {
        reason: 'image_input_not_supported',
        model: model.id,
      },
    );
  }
  // Every provider here reads PDFs as a vision model does (OpenAI: vision models only), so images stand for files.
  if (!model.supportsImages && facts.hasFiles) {
    throw new GatewayError(
      400,
      `Model ${model.id} does not accept PDF documents; remove file parts (documents) or choose a model with supports_images`,
      {
        reason: 'file_input_not_supported',
        model: model.id,
      },
    );
  }
  if (!model.supportsTools && facts.hasTools) {
    throw new GatewayError(400, `Model ${model.id} does not support tool calling`, {
      reason: 'tools_not_supported',
      model: model.id,
    });
  }
  const { estimatedPromptTokens } = facts;
  if (estimatedPromptTokens > model.contextLength) {
    throw new GatewayError(
      400,
      `This request needs about ${estimatedPromptTokens} tokens, more than the context window of ${model.id} (${model.contextLength} tokens)`,
      {
        reason: 'context_length_exceeded',
        model: model.id,
        context_length: model.contextLength,
        estimated_prompt_tokens: estimatedPromptTokens,
      },
    );
  }
  return { estimatedPromptTokens };
}
