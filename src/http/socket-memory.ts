// A Responses WebSocket's own memory of its turns (OpenAI's WebSocket mode keeps the previous response on the open
// socket, `store: false` ones too): the bounded cache of stored responses over nothing, so a turn lives as long as
// its socket and as long as the bound allows. Its turns are still checked against the asker (organization, models).
import { CachedMemory } from '../response-state/cached-memory.js';
import type { ResponseMemory } from '../core/stored-turn.js';

/** Holds nothing: what the socket's cache does not hold is unknown to it. */
const NOWHERE: ResponseMemory = {
  get: async () => undefined,
  put: async () => undefined,
};

/** `maxChars`: the JSON size of the turns it holds at most; past it, the oldest go (a chain through them is not found). */
export function socketMemory(maxChars: number): CachedMemory {
  return new CachedMemory(NOWHERE, { maxTurns: 10_000, maxChars });
}
