// The response cache as a step in front of a door (docs/response-cache.md), so the generation pipeline and the
// embeddings flow know nothing of it but that a request was already counted (GenerationClient.requestCounted).
// Without `X-Modelgate-Cache` the door is served as it always is. With it, the request is admitted first, then its key
// is taken from the request the pipeline serves (the door's FrontDoorRequest, the embeddings body:
// cacheable-request.ts) and looked up: a hit is admitted (its charge before anything of it is sent) and replayed from
// the cache (JSON body, or the recorded frames in order) under a generation id of its own, its settlement committed
// before its last bytes leave; a miss (or `refresh`) is served by the door through a recorder, and kept when whole and
// successful. The key is taken before the door runs: the pipeline lets go of the prompt once it is sent upstream.
// The HTTP layer writes what this returns (http/response-cache-exchange.ts).
import type { SseFrame } from '../../core/stream-renderer.js';
import type { EmbeddingRequestBody } from '../embeddings/check-embedding-request.js';
import { serveEmbeddings, type EmbeddingParts } from '../embeddings/serve-embeddings.js';
import type { GenerationParts } from '../generation-parts.js';
import {
  serveGeneration,
  type FrontDoorRequest,
  type GenerationClient,
  type GenerationResponse,
} from '../serve-generation.js';
import { admitHit, type HitParts } from './admit-cache-hit.js';
import { AnswerRecorder } from './answer-recorder.js';
import { parseCacheDirective } from './cache-directive.js';
import type { RequestHeaders } from './cache-key.js';
import { cacheableEmbeddings, cacheableGeneration, type CacheableRequest } from './cacheable-request.js';
import { replayFrames, replayJson, type CachedAnswer } from './cached-answer.js';
import { readResponseCache, releaseRead, type CacheRead } from './read-response-cache.js';

/** The request header that asks for the cache, and the answer's header that says whether it was used. */
export const CACHE_HEADER = 'x-modelgate-cache';

/** One request at the cache, as the HTTP layer read it. */
export interface CacheExchange {
  client: GenerationClient;
  /** The `X-Modelgate-Cache` header, when sent. */
  directive?: string;
  /** The request's headers: those that change the answer are part of the key. */
  headers: RequestHeaders;
  /** The door's answer, a miss's (recorded) or a hit's (replayed through the same stream writer). */
  response: GenerationResponse;
}

/** A door's request as the response cache takes it. */
interface CachedDoor {
  /** What the key and the admission read, taken only when the request asks for the cache. */
  cacheable(): CacheableRequest;
  serve(response: GenerationResponse, client: GenerationClient): Promise<void>;
}

/** A generation door's request, served through the response cache; `framing`: the Gemini door's stream framing. */
export function serveGenerationCached(
  parts: GenerationParts & HitParts,
  exchange: CacheExchange,
  door: FrontDoorRequest,
  framing?: 'sse' | 'json-array',
): Promise<void> {
  // A request an input guardrail blocked is refused and recorded by the pipeline: no cache read, nothing admitted.
  if (door.guardrails?.blockedBy !== undefined) return serveGeneration(parts, exchange.client, door, exchange.response);
  return withResponseCache(parts, exchange, {
    cacheable: () => cacheableGeneration(door, framing),
    serve: (response, client) => serveGeneration(parts, client, door, response),
  });
}

/** POST /embeddings, served through the response cache. */
export function serveEmbeddingsCached(
  parts: EmbeddingParts & HitParts,
  exchange: CacheExchange,
  body: EmbeddingRequestBody,
): Promise<void> {
  return withResponseCache(parts, exchange, {
    cacheable: () => cacheableEmbeddings(body),
    serve: (response, client) => serveEmbeddings(parts, client, body, response),
  });
}

async function withResponseCache(parts: HitParts, exchange: CacheExchange, door: CachedDoor): Promise<void> {
  const { client, response } = exchange;
  const directive = parseCacheDirective(exchange.directive);
  if (!directive) return door.serve(response, client);
  const cache = parts.responseCache;
  const request = door.cacheable();
  const read = await readResponseCache(parts, {
    principal: client.principal,
    request,
    headers: exchange.headers,
    read: directive.read,
  });
  if (read?.answer && (await replayHit(parts, exchange, request, read))) {
    cache.observer?.responseCacheHit(request.apiFormat);
    return;
  }
  if (read) await releaseRead(parts, read.admitted);
  cache.observer?.responseCacheMiss(request.apiFormat);
  response.headers({ [CACHE_HEADER]: 'miss' });
  const recorder = new AnswerRecorder(cache);
  let kept: CachedAnswer | undefined;
  try {
    // Counted by the read: the door's admission does not count the request again.
    await door.serve(recorder.wrap(response), { ...client, requestCounted: read?.admitted.rate });
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
  exchange: CacheExchange,
  request: CacheableRequest,
  read: CacheRead,
): Promise<boolean> {
  const { client } = exchange;
  const response = exchange.response;
  const answer = read.answer!;
  const started = Date.now();
  let hit: Awaited<ReturnType<typeof admitHit>>;
  try {
    hit = await admitHit(
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
  } catch (err) {
    // Refusals of the hit (402 for its price, 403 for a fallback model's allow-list) say so: the answer was there.
    response.headers({ [CACHE_HEADER]: 'hit' });
    throw err;
  }
  if (!hit) return false;
  const admitted = hit;
  response.rate(admitted.rate);
  response.headers({
    [CACHE_HEADER]: 'hit',
    ...answer.headers,
    'x-generation-id': admitted.replay.generationId,
  });
  const settle = (aborted: boolean) => admitted.settle({ latencyMs: Date.now() - started, aborted });
  try {
    if (answer.json !== undefined) {
      const body = replayJson(answer.json, answer.generationId, admitted.replay);
      // Settled before the body (it tells the charge) leaves, as every answer.
      await settle(false);
      response.jsonBytes(Buffer.from(body));
    } else {
      const frames = replayFrames(answer.frames!, answer.generationId, admitted.replay);
      await response.stream({ batches: settledBeforeEnd(frames, settle) }, parts.config.keepAliveSeconds * 1000);
    }
  } finally {
    // Once: here only when the replay failed before it settled.
    void settle(true);
  }
  return true;
}

/**
 * The recorded frames in two batches: all but the last, then, once the hit's settlement is committed, the last (a
 * stream's end: [DONE], message_stop, response.completed). A client gone before the end is settled as aborted.
 */
async function* settledBeforeEnd(
  frames: readonly SseFrame[],
  settle: (aborted: boolean) => Promise<void>,
): AsyncGenerator<readonly SseFrame[], undefined> {
  let ended = false;
  try {
    if (frames.length > 1) yield frames.slice(0, -1);
    ended = true;
    await settle(false);
    yield frames.slice(-1);
  } finally {
    if (!ended) await settle(true);
  }
}
