// The HTTP side of the response cache (pipeline/response-cache/serve-cached.ts): the request's cache header and
// headers in, and the door's answer out (generation-exchange.ts): a miss as the door renders it, a hit's recorded
// frames through the same stream writer.
import type { Context } from 'koa';
import type { StreamFraming } from '../core/stream-renderer.js';
import type { EmbeddingRequestBody } from '../pipeline/embeddings/check-embedding-request.js';
import type { FrontDoorRequest } from '../pipeline/serve-generation.js';
import {
  CACHE_HEADER,
  serveEmbeddingsCached as serveEmbeddingsThroughCache,
  serveGenerationCached as serveGenerationThroughCache,
  type CacheExchange,
} from '../pipeline/response-cache/serve-cached.js';
import { generationClient, generationResponse } from './generation-exchange.js';

type GenerationCacheParts = Parameters<typeof serveGenerationThroughCache>[0];
type EmbeddingCacheParts = Parameters<typeof serveEmbeddingsThroughCache>[0];

/** A generation door's request, served through the response cache; `framing`: the Gemini door's stream framing. */
export function serveGenerationCached(
  parts: GenerationCacheParts,
  ctx: Context,
  door: FrontDoorRequest,
  framing?: StreamFraming,
): Promise<void> {
  return serveGenerationThroughCache(parts, cacheExchange(ctx, framing), door, framing);
}

/** POST /embeddings, served through the response cache. */
export function serveEmbeddingsCached(
  parts: EmbeddingCacheParts,
  ctx: Context,
  body: EmbeddingRequestBody,
): Promise<void> {
  return serveEmbeddingsThroughCache(parts, cacheExchange(ctx), body);
}

function cacheExchange(ctx: Context, framing: StreamFraming = 'sse'): CacheExchange {
  return {
    client: generationClient(ctx),
    directive: ctx.get(CACHE_HEADER) || undefined,
    headers: ctx.headers,
    response: generationResponse(ctx, framing),
  };
}
