// What the response cache reads of a request, taken from the very object the pipeline serves (a generation door's
// FrontDoorRequest, the embeddings body) and never from a handler's own arguments: so whatever routes or prices the
// request (the path's model on the Gemini door, `models`, `provider`, reasoning, tools, the protocol headers a door
// forwards, the answer's form) is what keys it, and no door can leave a part out.
import type { ApiFormat } from '../../db/tables/generations.js';
import type { NativeWire } from '../../providers/native/native-protocol.js';
import type { FrontDoorRequest } from '../serve-generation.js';
import { estimateEmbeddingTokens, type EmbeddingRequestBody } from '../embeddings/check-embedding-request.js';

export interface CacheableRequest {
  apiFormat: ApiFormat;
  /** The gateway model id the request names (RequestFacts.model: from the body, the path, or a door's own naming). */
  model: string;
  /** What routing and admission read of the request (RequestFacts), where the door has them. */
  facts?: object;
  /** The client's request: its parsed body, and the protocol headers the door forwards upstream. */
  wire: Pick<NativeWire, 'body' | 'clientHeaders'>;
  /** The answer's form, as negotiated (an omitted `stream` may mean either). */
  stream: boolean;
  /** How a stream is written (the Gemini door's JSON array without `alt=sse`): another answer's bytes. */
  framing?: 'sse' | 'json-array';
  /** The prompt estimate the key's tokens per minute count (RequestFacts.estimatedPromptTokens). */
  estimatedTokens: number;
}

/** A generation door's request as served (serveGeneration reads the same object). */
export function cacheableGeneration(door: FrontDoorRequest, framing?: 'sse' | 'json-array'): CacheableRequest {
  const { facts } = door;
  return {
    apiFormat: door.apiFormat,
    model: facts.model,
    facts,
    wire: door.wire,
    stream: door.stream,
    framing,
    estimatedTokens: facts.estimatedPromptTokens,
  };
}

/** An embeddings request as served (serveEmbeddings reads the same body). */
export function cacheableEmbeddings(body: EmbeddingRequestBody): CacheableRequest {
  return {
    apiFormat: 'embeddings',
    model: body.model,
    wire: { body: body as unknown as Record<string, unknown>, clientHeaders: {} },
    stream: false,
    estimatedTokens: estimateEmbeddingTokens(body),
  };
}
