// The response cache at the door (docs/response-cache.md): a wrapper around a door's answer, so the generation
// pipeline and the embeddings flow know nothing of it but that a request was already counted
// (GenerationClient.requestCounted). Without `X-Modelgate-Cache` the door is served as it always is. With it, the
// request is admitted first, then its key is taken from the request the pipeline serves (the door's FrontDoorRequest,
// the embeddings body: cacheable-request.ts) and looked up: a hit is replayed from the cache (JSON body, or the
// recorded SSE frames in order) under a generation id of its own; a miss (or `refresh`) is served by the door through
// a recorder, and kept when whole and successful. The key is taken before the door runs: the pipeline lets go of the
// prompt once it is sent upstream.
import type { Context } from 'koa';
import { generationClient, generationResponse } from './generation-exchange.js';
import { SseWriter } from './sse-writer.js';
import { JsonArrayWriter } from './json-array-writer.js';
import type { StreamFraming } from './write-event-stream.js';
import type { GenerationParts } from '../pipeline/generation-parts.js';
import {
  serveGeneration,
  type FrontDoorRequest,
  type GenerationClient,
  type GenerationResponse,
} from '../pipeline/serve-generation.js';
import { serveEmbeddings, type EmbeddingParts } from '../pipeline/embeddings/serve-embeddings.js';
import type { EmbeddingRequestBody } from '../pipeline/embeddings/check-embedding-request.js';
import { parseCacheDirective } from '../pipeline/response-cache/cache-directive.js';
import {
  cacheableEmbeddings,
  cacheableGeneration,
  type CacheableRequest,
} from '../pipeline/response-cache/cacheable-request.js';
import { replayFrames, replayJson, type CachedAnswer } from '../pipeline/response-cache/cached-answer.js';
import { AnswerRecorder } from '../pipeline/response-cache/answer-recorder.js';
import { readResponseCache, releaseRead, type CacheRead } from '../pipeline/read-response-cache.js';
import { admitHit, type HitParts } from '../pipeline/serve-cache-hit.js';

const CACHE_HEADER = 'x-modelgate-cache';

/** A door's request as the response cache takes it. */
interface CachedDoor {
  /** How a stream is written (the Gemini door's JSON array without `alt=sse`); a hit is replayed the same way. */
  framing?: StreamFraming;
  /** What the key and the admission read, taken only when the request asks for the cache. */
  cacheable(): CacheableRequest;
  serve(response: GenerationResponse, client: GenerationClient): Promise<void>;
}

/** A generation door's request, served through the response cache; `framing`: the Gemini door's stream framing. */
export function serveGenerationCached(
  parts: GenerationParts & HitParts,
  ctx: Context,
  door: FrontDoorRequest,
  framing?: StreamFraming,
): Promise<void> {
  return withResponseCache(parts, ctx, {
    framing,
    cacheable: () => cacheableGeneration(door, framing),
    serve: (response, client) => serveGeneration(parts, client, door, response),
  });
}

/** POST /embeddings, served through the response cache. */
export function serveEmbeddingsCached(
  parts: EmbeddingParts & HitParts,
  ctx: Context,
  body: EmbeddingRequestBody,
): Promise<void> {
  return withResponseCache(parts, ctx, {
    cacheable: () => cacheableEmbeddings(body),
    serve: (response, client) => serveEmbeddings(parts, client, body, response),
  });
}

async function withResponseCache(parts: HitParts, ctx: Context, door: CachedDoor): Promise<void> {
  const { framing } = door;
  const directive = parseCacheDirective(ctx.get(CACHE_HEADER) || undefined);
  const client = generationClient(ctx);
  if (!directive) return door.serve(generationResponse(ctx, framing), client);
  const cache = parts.responseCache;
  const request = door.cacheable();
  const read = await readResponseCache(parts, {
    principal: client.principal,
    request,
    headers: ctx.headers,
    read: directive.read,
  });
  if (read?.answer && (await replayHit(parts, ctx, client, request, read))) {
    cache.observer?.responseCacheHit(request.apiFormat);
    return;
  }
  if (read) await releaseRead(parts, read.admitted);
  cache.observer?.responseCacheMiss(request.apiFormat);
  ctx.set(CACHE_HEADER, 'miss');
  const recorder = new AnswerRecorder(cache);
  let kept: CachedAnswer | undefined;
  try {
    // Counted by the read: the door's admission does not count the request again.
    await door.serve(recorder.wrap(generationResponse(ctx, framing)), {
      ...client,
      requestCounted: read?.admitted.rateHeaders,
    });
  } finally {
    kept = recorder.finish();
  }
  // Stored before the answer is complete (a JSON body leaves when this returns): the next request, on any instance
  // sharing the Redis, finds it.
  if (kept && read) await cache.keep(read.key, kept, directive.ttlSeconds);
}

/** Answers from the cache; false when the entry cannot serve (its model left the catalog): then it is a miss. */
async function replayHit(
  parts: HitParts,
  ctx: Context,
  client: GenerationClient,
  request: CacheableRequest,
  read: CacheRead,
): Promise<boolean> {
  const answer = read.answer!;
  // Refusals of the hit (402 for its price, 403 for a fallback model's allow-list) carry the header too: the answer was there.
  ctx.set(CACHE_HEADER, 'hit');
  const started = Date.now();
  const hit = await admitHit(
    parts,
    {
      principal: client.principal,
      apiFormat: request.apiFormat,
      requestedModel: request.model,
      stream: request.stream,
      tracking: client.tracking,
      requestTrace: client.requestTrace,
    },
    answer,
    read.admitted,
  );
  if (!hit) {
    ctx.remove(CACHE_HEADER);
    return false;
  }
  for (const [name, value] of Object.entries({
    ...hit.rateHeaders,
    ...answer.headers,
    'x-generation-id': hit.replay.generationId,
  }))
    ctx.set(name, value);
  let aborted = false;
  try {
    if (answer.json !== undefined) {
      ctx.type = 'application/json';
      ctx.body = replayJson(answer.json, answer.generationId, hit.replay);
    } else {
      aborted = !(await writeFrames(
        ctx,
        replayFrames(answer.frames!, answer.generationId, hit.replay),
        request.framing,
      ));
    }
  } finally {
    hit.settle({ latencyMs: Date.now() - started, aborted });
  }
  return true;
}

/** The recorded events, in order, in as few socket writes as the client takes; false when the client left. */
async function writeFrames(
  ctx: Context,
  frames: ReturnType<typeof replayFrames>,
  framing: StreamFraming = 'sse',
): Promise<boolean> {
  const writer = framing === 'json-array' ? new JsonArrayWriter(ctx.res, 15_000, '\n') : new SseWriter(ctx.res, 15_000);
  ctx.respond = false;
  writer.start();
  try {
    writer.cork();
    for (const frame of frames) {
      const full = writer.frame(frame);
      if (full) await full;
    }
    writer.uncork();
    return !writer.closed;
  } finally {
    writer.end();
  }
}
