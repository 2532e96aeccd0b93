// `modelgate admin-keys`: create (value shown once, own prefix), list without secrets, delete.
import { describe, expect, it } from 'vitest';
import { useCliDatabase } from '../helpers/cli-database.js';

const cli = useCliDatabase();

describe('modelgate admin-keys', () => {
  it('creates a key shown once as {"key_id","key"}, lists it without its value, and deletes it', async () => {
    expect((await cli('admin-keys', 'create')).code).toBe(2);
    const created = await cli('admin-keys', 'create', '--name', 'ops', '--json');
    expect(created.code).toBe(0);
    const parsed = JSON.parse(created.out);
    expect(Object.keys(parsed).sort()).toEqual(['key', 'key_id']);
    expect(parsed.key).toMatch(/^mga-v1-[A-Za-z0-9_-]{32}$/);
    expect(parsed.key_id).toMatch(/^adm_/);

    const listed = await cli('admin-keys', 'list', '--json');
    expect(JSON.parse(listed.out)).toEqual([
      expect.objectContaining({ key_id: parsed.key_id, name: 'ops', prefix: `${parsed.key.slice(0, 15)}...` }),
    ]);
    expect(listed.out).not.toContain(parsed.key);

    expect((await cli('admin-keys', 'delete', '--id', parsed.key_id)).code).toBe(0);
    expect((await cli('admin-keys', 'delete', '--id', parsed.key_id)).code).toBe(1);
    expect(JSON.parse((await cli('admin-keys', 'list', '--json')).out)).toEqual([]);
  });
});
