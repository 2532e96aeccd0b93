// `modelgate generations prune`: deletes the records older than N whole UTC days and says how many and from when;
// bad values are usage errors (exit 2) that touch nothing.
import { expect, it } from 'vitest';
import { useCliDatabase } from '../helpers/cli-database.js';
import { retentionCutoff } from '../../src/services/generation-retention.js';

const cli = useCliDatabase();

it('prunes by whole UTC days and refuses values that mean nothing', async () => {
  for (const bad of [['--older-than-days', '0'], ['--older-than-days', 'week'], []]) {
    const res = await cli('generations', 'prune', ...bad);
    expect(res.code, bad.join(' ')).toBe(2);
    expect(res.err).toContain('--older-than-days');
  }
  expect((await cli('generations', 'trim')).code).toBe(2);
  const pruned = await cli('generations', 'prune', '--older-than-days', '30', '--json');
  expect(pruned.code).toBe(0);
  const result = JSON.parse(pruned.out);
  expect(result).toEqual({ deleted: 0, cutoff: retentionCutoff(new Date(), 30).toISOString() });
  expect((await cli('generations', 'prune', '--older-than-days', '30')).out).toMatch(
    /^deleted 0 generation records created before \d{4}-/,
  );
});
