// `modelgate provider-keys set|list|delete`: the operator manages an organization's own provider keys; the key is
// read from an environment variable and never printed, refusals are exit 1 (2 for usage or configuration).
import { expect, it } from 'vitest';
import { useCliDatabase } from '../helpers/cli-database.js';

const OWN_KEY = 'sk-own-cli-0123456789abcdef-9f8e';
const cli = useCliDatabase({
  MODELGATE_ENCRYPTION_KEY: Buffer.alloc(32, 3).toString('base64'),
  PROVIDER_KEY: OWN_KEY,
  ANTHROPIC_OWN: 'sk-ant-own-cli-0123456789abcdef-7d6c',
});

it('sets, lists masked and deletes a key, never printing it', async () => {
  const user = await cli('users', 'create', '--email', 'byok-cli@example.com', '--json');
  expect(user.code).toBe(0);
  const org = JSON.parse(user.out).user_id as string;

  const set = await cli('provider-keys', 'set', '--org', org, '--provider', 'openai', '--mode', 'only');
  expect(set).toMatchObject({ code: 0, out: 'openai: sk-…9f8e (only)' });
  const other = await cli(
    'provider-keys',
    'set',
    '--org',
    org,
    '--provider',
    'anthropic',
    '--key-env',
    'ANTHROPIC_OWN',
  );
  expect(other.out).toBe('anthropic: sk-…7d6c (prefer)');

  const listed = await cli('provider-keys', 'list', '--org', org, '--json');
  expect(JSON.parse(listed.out).data).toEqual([
    expect.objectContaining({ provider: 'anthropic', key_hint: 'sk-…7d6c', mode: 'prefer' }),
    expect.objectContaining({ provider: 'openai', key_hint: 'sk-…9f8e', mode: 'only' }),
  ]);
  expect(listed.out).not.toContain(OWN_KEY);

  expect((await cli('provider-keys', 'delete', '--org', org, '--provider', 'openai')).code).toBe(0);
  const again = await cli('provider-keys', 'delete', '--org', org, '--provider', 'openai');
  expect(again.code).toBe(1);
  expect(again.err).toMatch(/no key of its own for openai/);

  const audit = await cli('audit', '--org', org, '--action', 'provider_key.set', '--json');
  expect(JSON.parse(audit.out).data.map((e: { target: { id: string } }) => e.target.id)).toEqual([
    'anthropic',
    'openai',
  ]);
  expect(audit.out).not.toContain(OWN_KEY);
});

it('refuses an unknown provider, a missing key variable and a bad mode', async () => {
  const org = JSON.parse((await cli('users', 'create', '--email', 'byok-cli-2@example.com', '--json')).out).user_id;
  const unknown = await cli('provider-keys', 'set', '--org', org, '--provider', 'acme');
  expect(unknown.code).toBe(1);
  expect(unknown.err).toMatch(/Unknown provider "acme"/);
  const missing = await cli('provider-keys', 'set', '--org', org, '--provider', 'openai', '--key-env', 'NOPE');
  expect(missing.code).toBe(2);
  expect(missing.err).toMatch(/\$NOPE/);
  const mode = await cli('provider-keys', 'set', '--org', org, '--provider', 'openai', '--mode', 'always');
  expect(mode.code).toBe(1);
  expect(mode.err).not.toContain(OWN_KEY);
});
