import { expect, it } from 'vitest';
import { insertPassUsage, sumPassUsageSince } from '../../src/repositories/pass-usage.js';
import { describeEachDatabase, insertTestUser, uniqueId } from '../helpers/databases.js';

describeEachDatabase('pass usage repository', (ctx) => {
  it('records each generation once and sums a window from its start', async () => {
    const db = ctx.db();
    const user = await insertTestUser(db);
    const other = await insertTestUser(db);
    const at = (iso: string) => new Date(iso);
    const generationId = uniqueId('gen-');

    expect(await insertPassUsage(db, { user_id: user.id, generation_id: generationId, reference_cost_nanos: 100n, created_at: at('2025-01-01T10:00:00Z') })).toBe(true);
    expect(await insertPassUsage(db, { user_id: user.id, generation_id: generationId, reference_cost_nanos: 999n })).toBe(false);
    await insertPassUsage(db, { user_id: user.id, generation_id: uniqueId('gen-'), reference_cost_nanos: 250n, created_at: at('2025-01-01T14:00:00Z') });
    await insertPassUsage(db, { user_id: other.id, generation_id: uniqueId('gen-'), reference_cost_nanos: 7n, created_at: at('2025-01-01T14:00:00Z') });

    expect(await sumPassUsageSince(db, user.id, at('2025-01-01T00:00:00Z'))).toBe(350n);
    expect(await sumPassUsageSince(db, user.id, at('2025-01-01T14:00:00Z'))).toBe(250n);
    expect(await sumPassUsageSince(db, user.id, at('2025-01-02T00:00:00Z'))).toBe(0n);
  });
});
