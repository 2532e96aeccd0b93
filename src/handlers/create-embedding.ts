// POST /embeddings — OpenAI's embeddings format; the steps run in serveEmbeddings (src/embeddings/).
import type { Handler } from '../http/openapi-router.js';
import { generationClient, generationResponse } from '../http/generation-exchange.js';
import { serveEmbeddings, type EmbeddingParts } from '../embeddings/serve-embeddings.js';
import type { EmbeddingRequestBody } from '../embeddings/check-embedding-request.js';

export function createEmbedding(parts: EmbeddingParts): Handler {
  return (api, ctx) => {
    const body = api.request.requestBody as EmbeddingRequestBody;
    return serveEmbeddings(parts, generationClient(ctx), body, generationResponse(ctx));
  };
}
