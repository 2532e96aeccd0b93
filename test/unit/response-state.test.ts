// The stored-responses seam: a chain is walked through the memories in order, refused as OpenAI does when a link is
// unknown to the asker, expanded into one input (instructions never carried), and a turn is kept where `store` says.
import { describe, expect, it } from 'vitest';
import { CachedMemory } from '../../src/response-state/cached-memory.js';
import { continueResponse } from '../../src/response-state/continue-response.js';
import { expandRequest } from '../../src/response-state/expand-request.js';
import { loadChain } from '../../src/response-state/load-chain.js';
import type { ResponseMemory, StoredTurn, TurnOwner } from '../../src/core/stored-turn.js';
import { turnVisibleTo } from '../../src/response-state/turn-visibility.js';

const owner: TurnOwner = { organizationId: 'org-a', memberUserId: 'user-a', keyId: 'key-a', allowedModels: null };
const stranger: TurnOwner = { ...owner, organizationId: 'org-b', memberUserId: 'user-b', keyId: 'key-b' };

class MapMemory implements ResponseMemory {
  readonly turns = new Map<string, StoredTurn>();
  gets = 0;
  async get(id: string, who: TurnOwner) {
    this.gets++;
    const turn = this.turns.get(id);
    return turn && turnVisibleTo(turn, who) ? turn : undefined;
  }
  async put(turn: StoredTurn) {
    this.turns.set(turn.id, turn);
  }
}

function turn(
  id: string,
  previous: string | null,
  said: string,
  answered: string,
  model = 'openai/gpt-5.5',
): StoredTurn {
  return {
    id,
    owner: { organizationId: owner.organizationId, memberUserId: owner.memberUserId, keyId: owner.keyId },
    model,
    previousResponseId: previous,
    rootId: 'gen-1',
    input: [{ type: 'message', role: 'user', content: said }],
    response: { id, object: 'response', output: [{ type: 'message', role: 'assistant', content: answered }] },
    createdAt: new Date(),
    store: true,
  };
}

describe('stored responses: chains', () => {
  it('walks the links oldest first, the first memory holding a turn answering for it', async () => {
    const socket = new MapMemory();
    const database = new MapMemory();
    await database.put(turn('gen-1', null, 'hi', 'hello'));
    await socket.put(turn('gen-2', 'gen-1', 'again', 'sure'));
    const chain = await loadChain([socket, database], 'gen-2', owner);
    expect(chain.map((t) => t.id)).toEqual(['gen-1', 'gen-2']);
  });

  it('refuses an id unknown to the asker as previous_response_not_found (another organization, a narrower key)', async () => {
    const database = new MapMemory();
    await database.put(turn('gen-1', null, 'hi', 'hello', 'anthropic/claude-sonnet-4.5'));
    for (const who of [stranger, { ...owner, allowedModels: ['openai/*'] }, owner]) {
      const id = who === owner ? 'gen-9' : 'gen-1';
      const refusal = await loadChain([database], id, who).catch((err: unknown) => err);
      expect(refusal).toMatchObject({
        status: 400,
        code: 'previous_response_not_found',
        message: `Previous response with id '${id}' not found.`,
        metadata: { param: 'previous_response_id' },
      });
    }
  });

  it('expands into the chain items then the new ones, without previous_response_id, instructions the new only', () => {
    const chain = [turn('gen-1', null, 'hi', 'hello'), turn('gen-2', 'gen-1', 'again', 'sure')];
    const body = { model: 'm', instructions: 'be brief', previous_response_id: 'gen-2', input: 'third' };
    const expanded = expandRequest(chain, body);
    expect(expanded).toEqual({
      model: 'm',
      instructions: 'be brief',
      input: [
        { type: 'message', role: 'user', content: 'hi' },
        { type: 'message', role: 'assistant', content: 'hello' },
        { type: 'message', role: 'user', content: 'again' },
        { type: 'message', role: 'assistant', content: 'sure' },
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'third' }] },
      ],
    });
    expect(JSON.stringify(expandRequest(chain, body))).toBe(JSON.stringify(expanded));
  });
});

describe('stored responses: the cache in front of the database', () => {
  it('serves the turns it holds without the database, evicts beyond its bounds, and isolates owners', async () => {
    const database = new MapMemory();
    const cache = new CachedMemory(database, { maxTurns: 2, maxChars: 1_000_000 });
    for (const id of ['gen-1', 'gen-2', 'gen-3']) await cache.put(turn(id, null, 'q', 'a'));
    database.gets = 0;
    expect(await cache.get('gen-3', owner)).toBeDefined();
    expect(await cache.get('gen-3', stranger)).toBeUndefined();
    expect(database.gets).toBe(0);
    expect(await cache.get('gen-1', owner)).toBeDefined();
    expect(database.gets).toBe(1);
  });
});

describe('stored responses: keeping a turn', () => {
  const answer = { id: 'gen-5', object: 'response', status: 'completed', model: 'openai/gpt-5.5', output: [] };

  it('keeps a store:false turn only in the edge memory, a stored one in both', async () => {
    for (const store of [false, true, undefined]) {
      const local = new MapMemory();
      const database = new MapMemory();
      const state = { stored: database, logger: { warn() {} } };
      const continued = await continueResponse(state, { body: { input: 'hi', store }, owner, local });
      expect(continued.keeping?.fields).toEqual({ previous_response_id: null, store: store !== false });
      continued.keeping?.final(answer);
      await Promise.resolve();
      expect(local.turns.has('gen-5')).toBe(true);
      expect(database.turns.has('gen-5')).toBe(store !== false);
    }
  });

  it('refuses store:true when nothing is stored (retention 0), and keeps nothing without a memory', async () => {
    const state = { logger: { warn() {} } };
    await expect(continueResponse(state, { body: { input: 'hi', store: true }, owner })).rejects.toMatchObject({
      status: 400,
      metadata: { param: 'store' },
    });
    expect(await continueResponse(state, { body: { input: 'hi' }, owner })).toEqual({
      body: { input: 'hi' },
      expanded: false,
    });
  });

  it('keeps a failed answer nowhere, and logs a failed write without throwing', async () => {
    const warned: unknown[] = [];
    const broken: ResponseMemory = { get: async () => undefined, put: async () => Promise.reject(new Error('down')) };
    const state = { stored: broken, logger: { warn: (o: unknown) => void warned.push(o) } };
    const continued = await continueResponse(state, { body: { input: 'hi' }, owner });
    continued.keeping?.final({ ...answer, status: 'failed' });
    continued.keeping?.final(answer);
    await new Promise((resolve) => setImmediate(resolve));
    expect(warned).toHaveLength(1);
  });
});
