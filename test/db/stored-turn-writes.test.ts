// Stored turns reach the database group-committed: turns answered while a write is in flight go out together in one
// statement, each put resolves once its turn is committed, and a turn the database refuses fails alone.
import type { KyselyPlugin } from 'kysely';
import { expect, it } from 'vitest';
import type { StoredTurn, TurnOwner } from '../../src/core/stored-turn.js';
import { DatabaseMemory } from '../../src/response-state/database-memory.js';
import { describeEachDatabase, insertTestUser, uniqueId } from '../helpers/databases.js';

/** Counts the statements a Kysely instance runs. */
function countingPlugin(): { plugin: KyselyPlugin; statements: () => number } {
  let statements = 0;
  return {
    statements: () => statements,
    plugin: {
      transformQuery(args) {
        statements++;
        return args.node;
      },
      transformResult: (args) => Promise.resolve(args.result),
    },
  };
}

function turnOf(owner: TurnOwner, response: Record<string, unknown> = {}): StoredTurn {
  const id = uniqueId('gen-');
  return {
    id,
    owner: { organizationId: owner.organizationId, memberUserId: owner.memberUserId, keyId: null },
    model: 'openai/gpt-5.5',
    previousResponseId: null,
    rootId: id,
    input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: `question ${id}` }] }],
    response: { id, object: 'response', status: 'completed', output: [], ...response },
    createdAt: new Date(),
    store: true,
  };
}

describeEachDatabase('stored turn writes', (ctx) => {
  async function ownerOf(): Promise<TurnOwner> {
    const user = await insertTestUser(ctx.db());
    return { organizationId: user.id, memberUserId: user.id, keyId: null, allowedModels: null };
  }

  it('writes the turns answered meanwhile in one statement, each readable once its put resolves', async () => {
    const owner = await ownerOf();
    const counting = countingPlugin();
    const memory = new DatabaseMemory(ctx.db().withPlugin(counting.plugin), 30);
    const turns = Array.from({ length: 20 }, () => turnOf(owner));
    await Promise.all(turns.map((turn) => memory.put(turn)));
    // The first turn goes out alone; the 19 queued behind it share the next statement.
    expect(counting.statements()).toBe(2);
    const reader = new DatabaseMemory(ctx.db(), 30);
    for (const turn of turns) expect((await reader.get(turn.id, owner))?.response).toEqual(turn.response);
  });

  it('refuses only the turn the database refuses; the others of its batch are written', async () => {
    const owner = await ownerOf();
    const memory = new DatabaseMemory(ctx.db(), 30);
    const first = turnOf(owner);
    // jsonb holds no NUL character: the database refuses this turn's Response.
    const refused = turnOf(owner, { note: 'a\u0000b' });
    const others = [turnOf(owner), turnOf(owner)];
    const outcomes = await Promise.allSettled([first, others[0], refused, others[1]].map((turn) => memory.put(turn)));
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    for (const turn of [first, ...others]) expect(await memory.get(turn.id, owner)).toBeDefined();
    expect(await memory.get(refused.id, owner)).toBeUndefined();
  });
});
