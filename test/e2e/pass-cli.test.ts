// `modelgate pass grant|show|revoke` against a real database: PostgreSQL when one answers, else an embedded PGlite folder.
import { describe, expect, it } from 'vitest';
import { useCliDatabase } from '../helpers/cli-database.js';

const cli = useCliDatabase();

const DAY = 86_400_000;

describe('modelgate pass', () => {
  it('grants chained monthly periods, shows them with the quota usage, and revokes them', async () => {
    expect((await cli('users', 'create', '--email', 'sub@example.com')).code).toBe(0);
    const before = Date.now();
    const granted = await cli('pass', 'grant', '--email', 'Sub@Example.com', '--json');
    expect(granted.code).toBe(0);
    const [first] = JSON.parse(granted.out).periods;
    expect(Date.parse(first.period_start)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(first.period_end) - Date.parse(first.period_start)).toBeGreaterThanOrEqual(28 * DAY);

    // Two more months start where the current period ends.
    const more = await cli('pass', 'grant', '--email', 'sub@example.com', '--months', '2');
    expect(more.code).toBe(0);
    expect(more.out).toContain('2 month(s) added');
    const shown = JSON.parse((await cli('pass', 'show', '--email', 'sub@example.com', '--json')).out);
    expect(shown.active).toBe(true);
    expect(shown.periods).toHaveLength(3);
    expect(shown.periods[1].period_start).toBe(first.period_end);
    expect(shown.periods[2].period_start).toBe(shown.periods[1].period_end);
    expect(shown.usage.five_hour).toMatchObject({ used: 0, limit: 2, remaining: 2 });
    expect(shown.usage.weekly).toMatchObject({ limit: 16 });
    expect(shown.usage.monthly).toMatchObject({ limit: 40 });
    expect(shown.usage.subscription).toEqual({ period_start: first.period_start, period_end: first.period_end });

    const revoked = await cli('pass', 'revoke', '--email', 'sub@example.com');
    expect(revoked.out).toContain('revoked 3 subscription period(s)');
    const after = JSON.parse((await cli('pass', 'show', '--email', 'sub@example.com', '--json')).out);
    expect(after).toMatchObject({ active: false, periods: [], usage: null });
  });

  it('rejects bad arguments with exit code 2 and unknown users with 1', async () => {
    expect((await cli('pass', 'grant', '--email', 'x@example.com', '--months', '0')).code).toBe(2);
    expect((await cli('pass', 'grant', '--email', 'x@example.com', '--months', '1.5')).code).toBe(2);
    expect((await cli('pass', 'extend', '--email', 'x@example.com')).code).toBe(2);
    expect((await cli('pass', 'show', '--email', 'nobody@example.com')).code).toBe(1);
    expect((await cli('pass', 'revoke', '--email', 'nobody@example.com')).code).toBe(1);
  });
});
