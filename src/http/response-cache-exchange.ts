// The response cache at the door (docs/response-cache.md): a wrapper around a door's answer, so the generation
// pipeline and the embeddings flow know nothing of it. Without `X-Modelgate-Cache` the door is served as it always
// is. With it: a hit is replayed from the cache (JSON body, or the recorded SSE frames in order) under a generation
// id of its own; a miss (or `refresh`) is served by the door through a recorder, and kept when whole and successful.
// The key is taken before the door runs: the pipeline lets go of the prompt once it is sent upstream.
import type { Context } from 'koa';
import { principalOf } from './authenticate.js';
import { generationResponse } from './generation-exchange.js';
import { trackingHeaders } from './tracking-headers.js';
import { SseWriter } from './sse-writer.js';
import { requestTraceOf } from '../observability/request-span.js';
import type { ApiFormat } from '../db/tables/generations.js';
import type { GenerationResponse } from '../pipeline/serve-generation.js';
import { parseCacheDirective } from '../pipeline/response-cache/cache-directive.js';
import { cacheKey } from '../pipeline/response-cache/cache-key.js';
import { replayFrames, replayJson, type CachedAnswer } from '../pipeline/response-cache/cached-answer.js';
import { AnswerRecorder } from '../pipeline/response-cache/answer-recorder.js';
import { admitHit, type HitParts } from '../pipeline/serve-cache-hit.js';

export interface CacheableAnswer {
  apiFormat: ApiFormat;
  /** The model the request names. */
  model: string;
  /** The request body as the door parsed it (the key is taken from it before the door runs). */
  body: unknown;
  /** The answer's form, as negotiated. */
  stream: boolean;
  /** Protocol headers that change the answer (part of the key). */
  variant?: Readonly<Record<string, string>>;
}

const CACHE_HEADER = 'x-modelgate-cache';

export async function withResponseCache(
  parts: HitParts,
  ctx: Context,
  door: CacheableAnswer,
  serve: (response: GenerationResponse) => Promise<void>,
): Promise<void> {
  const directive = parseCacheDirective(ctx.get(CACHE_HEADER) || undefined);
  if (!directive) return serve(generationResponse(ctx));
  const cache = parts.responseCache;
  const principal = principalOf(ctx);
  const key = cacheKey({ userId: principal.userId, door: door.apiFormat, body: door.body, stream: door.stream, variant: door.variant });
  if (directive.read) {
    const answer = await cache.lookup(key);
    // An entry of the other form cannot be (the form is in the key); checked anyway, as the entry is untrusted text.
    if (answer && (answer.frames !== undefined) === door.stream && (await replayHit(parts, ctx, door, answer))) {
      cache.observer?.responseCacheHit(door.apiFormat);
      return;
    }
  }
  cache.observer?.responseCacheMiss(door.apiFormat);
  ctx.set(CACHE_HEADER, 'miss');
  const recorder = new AnswerRecorder(cache);
  let kept: CachedAnswer | undefined;
  try {
    await serve(recorder.wrap(generationResponse(ctx)));
  } finally {
    kept = recorder.finish();
  }
  // Stored before the answer is complete (a JSON body leaves when this returns): the next request, on any instance
  // sharing the Redis, finds it.
  if (kept) await cache.keep(key, kept, directive.ttlSeconds);
}

/** Answers from the cache; false when the entry cannot serve (its model left the catalog): then it is a miss. */
async function replayHit(parts: HitParts, ctx: Context, door: CacheableAnswer, answer: CachedAnswer): Promise<boolean> {
  // Refusals of the hit (429, 402, 403) carry the header too: the answer was there.
  ctx.set(CACHE_HEADER, 'hit');
  const started = Date.now();
  const hit = await admitHit(parts, {
    principal: principalOf(ctx), apiFormat: door.apiFormat, requestedModel: door.model, stream: door.stream,
    tracking: trackingHeaders(ctx), requestTrace: requestTraceOf(ctx),
  }, answer);
  if (!hit) {
    ctx.remove(CACHE_HEADER);
    return false;
  }
  for (const [name, value] of Object.entries({ ...hit.rateHeaders, ...answer.headers, 'x-generation-id': hit.replay.generationId })) ctx.set(name, value);
  let aborted = false;
  try {
    if (answer.json !== undefined) {
      ctx.type = 'application/json';
      ctx.body = replayJson(answer.json, answer.generationId, hit.replay);
    } else {
      aborted = !(await writeFrames(ctx, replayFrames(answer.frames!, answer.generationId, hit.replay)));
    }
  } finally {
    hit.settle({ latencyMs: Date.now() - started, aborted });
  }
  return true;
}

/** The recorded events, in order, in as few socket writes as the client takes; false when the client left. */
async function writeFrames(ctx: Context, frames: ReturnType<typeof replayFrames>): Promise<boolean> {
  const writer = new SseWriter(ctx.res, 15_000);
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
