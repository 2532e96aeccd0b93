// POST /embeddings — OpenAI's embeddings format; the steps run in serveEmbeddings (src/pipeline/embeddings/), and the
// opt-in response cache wraps its answer as it wraps the generation doors' (X-Modelgate-Cache).
import { OPENAI_RATE_LIMIT_HEADERS } from '../formats/shared/rate-limit-headers.js';
import type { Handler } from '../http/openapi-router.js';
import { useRateLimitHeaders } from '../http/rate-limit-exchange.js';
import { serveEmbeddingsCached } from '../http/response-cache-exchange.js';
import type { HitParts } from '../pipeline/response-cache/admit-cache-hit.js';
import type { EmbeddingParts } from '../pipeline/embeddings/serve-embeddings.js';
import type { EmbeddingRequestBody } from '../pipeline/embeddings/check-embedding-request.js';

export function createEmbedding(parts: EmbeddingParts & HitParts): Handler {
  return (api, ctx) => {
    // An OpenAI door: its clients read OpenAI's rate-limit headers.
    useRateLimitHeaders(ctx, OPENAI_RATE_LIMIT_HEADERS);
    const body = api.request.requestBody as EmbeddingRequestBody;
    return serveEmbeddingsCached(parts, ctx, body);
  };
}
