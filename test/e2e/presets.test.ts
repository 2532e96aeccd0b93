// An organization's presets end to end: saved over the API by owners and admins (each save a new version), read by
// members, named as `@preset/<slug>` (or a pinned `@preset/<slug>@<version>`) on every door, filling what the request
// leaves out with the request's own fields winning, served, billed and recorded as the model it names, for its
// organization only, and changed for running gateways by another process's save.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { MockUpstream } from '../helpers/mock-upstream.js';
import { loadJson } from '../helpers/stream-replay.js';
import { createAdminKey } from '../../src/services/admin-keys.js';
import { OPERATOR } from '../../src/auth/member-roles.js';
import { removePreset, savePreset } from '../../src/services/presets.js';
import { CONSOLE_ACTOR } from '../../src/services/audit-log.js';

let gw: TestGateway;
let upstream: MockUpstream;
let owner: { userId: string; key: string; token: string };
let member: { userId: string; token: string };
let stranger: { userId: string; key: string };
let admin: string;
let org: string;

const fixture = (path: string) => readFileSync(new URL(`../fixtures/${path}`, import.meta.url), 'utf8');

beforeAll(async () => {
  upstream = await new MockUpstream().start();
  gw = await startTestGateway({
    env: {
      OPENAI_API_KEY: 'sk-openai-upstream',
      OPENAI_BASE_URL: `${upstream.url}/v1`,
      ANTHROPIC_API_KEY: 'sk-ant-upstream',
      ANTHROPIC_BASE_URL: upstream.url,
      GEMINI_API_KEY: 'AIzaUpstream',
      GOOGLE_BASE_URL: `${upstream.url}/v1beta`,
    },
  });
  const created = await gw.createUser();
  owner = { ...created, token: await gw.createToken(created.userId) };
  const joined = await gw.createUser();
  member = { userId: joined.userId, token: await gw.createToken(joined.userId) };
  stranger = await gw.createUser();
  await gw.grant(owner.userId, 10);
  await gw.grant(stranger.userId, 10);
  admin = (await createAdminKey(gw.db, { name: 'ops' })).secret;
  // A shared organization (a personal one has one member): the owner's token and key act in it, the member reads.
  org = (await call('POST', '/admin/organizations', admin, { body: { name: 'Acme', owner_user_id: owner.userId } }))
    .body.id as string;
  const added = await call('PUT', `/admin/organizations/${org}/members/${member.userId}`, admin, {
    body: { role: 'member' },
  });
  expect(added.status, JSON.stringify(added.body)).toBe(200);
  await call('POST', `/admin/organizations/${org}/credits`, admin, { body: { amount: 10 } });
  const key = await call('POST', '/api-keys', owner.token, { body: { name: 'acme' } });
  expect(key.status, JSON.stringify(key.body)).toBe(201);
  owner.key = key.body.key;
});
afterAll(async () => {
  await gw?.close();
  await upstream?.close();
});
beforeEach(() => upstream.reset());

async function call(method: string, path: string, key: string, options: { body?: unknown; headers?: object } = {}) {
  const headers: Record<string, string> = { ...(options.headers as Record<string, string>) };
  // The account tokens act in the shared organization.
  if (org !== undefined && (key === owner.token || key === member.token)) headers['x-modelgate-organization'] = org;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const res = await gw.fetch(`/api/v1${path}`, {
    method,
    key,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await res.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    // A stream: its text.
  }
  return { status: res.status, body, headers: res.headers };
}

const chat = (model: string, extra: object = {}) => ({
  model,
  stream: false,
  messages: [{ role: 'user', content: 'Hi' }],
  ...extra,
});

const ANTHROPIC = { 'anthropic-version': '2023-06-01' };
const CLAUDE = 'anthropic/claude-sonnet-5-5';

async function lastGeneration(organizationId: string) {
  return gw.db
    .selectFrom('generations')
    .select(['model', 'cost_nanos'])
    .where('user_id', '=', organizationId)
    .orderBy('created_at', 'desc')
    .executeTakeFirstOrThrow();
}

/** The system prompt Anthropic was sent, as text. */
function sentSystem(): string | undefined {
  const system = upstream.last.body.system;
  if (system === undefined || typeof system === 'string') return system;
  return (system as { text: string }[]).map((block) => block.text).join('');
}

describe('saving presets', () => {
  it('an owner saves a preset and a new version of it; members read them; a member and an API key cannot save', async () => {
    const first = await call('POST', '/presets', owner.token, {
      body: {
        slug: 'coder',
        description: 'Our coding model',
        preset: { model: CLAUDE, system: 'Be terse.', temperature: 0.2, max_tokens: 300 },
      },
    });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body).toMatchObject({ object: 'preset', slug: 'coder', version: 1, description: 'Our coding model' });
    expect(first.body.preset).toEqual({ model: CLAUDE, system: 'Be terse.', temperature: 0.2, max_tokens: 300 });
    // The first request of the organization loads its presets into memory: the next save must reach them.
    upstream.reply({ kind: 'json', body: loadJson('anthropic', 'text') });
    expect((await call('POST', '/chat/completions', owner.key, { body: chat('@preset/coder') })).status).toBe(200);

    const second = await call('POST', '/presets', owner.token, {
      body: { slug: 'coder', preset: { model: CLAUDE, system: 'Be verbose.', temperature: 0.7, max_tokens: 400 } },
    });
    expect(second.status, JSON.stringify(second.body)).toBe(201);
    expect(second.body.version).toBe(2);

    const byMember = await call('POST', '/presets', member.token, {
      body: { slug: 'mine', preset: { model: CLAUDE } },
    });
    expect(byMember.status, JSON.stringify(byMember.body)).toBe(403);
    expect(byMember.body.error.metadata.reason).toBe('role_required');
    expect((await call('DELETE', '/presets/coder', member.token, {})).status).toBe(403);
    expect((await call('POST', '/presets', owner.key, { body: { slug: 'k', preset: { model: CLAUDE } } })).status).toBe(
      403,
    );

    const listed = await call('GET', '/presets', member.token, {});
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    expect(listed.body.data.map((p: { slug: string; version: number }) => `${p.slug}@${p.version}`)).toEqual([
      'coder@2',
    ]);
    const one = await call('GET', '/presets/coder', owner.key);
    expect(one.status).toBe(200);
    expect(one.body.version).toBe(2);
    expect(one.body.versions.map((v: { version: number }) => v.version)).toEqual([2, 1]);
    const v1 = await call('GET', '/presets/coder/versions/1', owner.key);
    expect(v1.body.preset.system).toBe('Be terse.');
    expect((await call('GET', '/presets/coder/versions/9', owner.key)).status).toBe(404);
    expect((await call('GET', '/presets/ghost', owner.key)).status).toBe(404);
    expect((await call('GET', '/presets', stranger.key)).body.data).toEqual([]);
  });

  it('saves from a chat-completions request body: its settings and system prompt, not its conversation', async () => {
    const saved = await call('POST', '/presets', owner.token, {
      body: {
        slug: 'from-chat',
        from_request: {
          model: 'gpt-5.5',
          temperature: 0.3,
          max_completion_tokens: 500,
          stop: 'END',
          messages: [
            { role: 'system', content: 'You review code.' },
            { role: 'user', content: 'Review this.' },
          ],
        },
      },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(201);
    // A catalog alias is stored as the model it stands for.
    expect(saved.body.preset).toEqual({
      model: 'openai/gpt-5.5',
      system: 'You review code.',
      temperature: 0.3,
      max_tokens: 500,
      stop: ['END'],
    });
  });

  it('refuses an unknown model, a bad slug, both sources or neither, and no model', async () => {
    const cases: [unknown, string][] = [
      [{ slug: 'x', preset: { model: 'openai/no-such-model' } }, 'unknown_model'],
      [{ slug: 'team/x', preset: { model: CLAUDE } }, 'invalid_preset_slug'],
      [{ slug: 'x@2', preset: { model: CLAUDE } }, 'invalid_preset_slug'],
      [{ slug: 'x', preset: { model: CLAUDE }, from_request: chat(CLAUDE) }, 'preset_source'],
      [{ slug: 'x' }, 'preset_source'],
      [{ slug: 'x', preset: { temperature: 1 } }, 'model_required'],
    ];
    for (const [body, reason] of cases) {
      const res = await call('POST', '/presets', owner.token, { body });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.error.metadata.reason).toBe(reason);
    }
    const tooBig = await call('POST', '/presets', owner.token, {
      body: { slug: 'big', preset: { model: CLAUDE, system: 'x'.repeat(30000), tools: bigTools() } },
    });
    expect(tooBig.status, JSON.stringify(tooBig.body)).toBe(400);
    expect(tooBig.body.error.metadata.reason).toBe('preset_too_large');
  });

  it('audits each save', async () => {
    const log = await call('GET', `/organizations/${org}/audit-log`, owner.token);
    const actions = log.body.data.map((e: { action: string; target: { id: string } }) => `${e.action}:${e.target.id}`);
    expect(actions).toContain('preset.changed:coder');
  });
});

function bigTools() {
  return Array.from({ length: 20 }, (_, i) => ({
    type: 'function',
    function: { name: `tool_${i}`, description: 'y'.repeat(300) },
  }));
}

describe('a request naming a preset', () => {
  it('chat completions: the latest version fills the system prompt and settings; served and billed as its model', async () => {
    upstream.reply({ kind: 'json', body: loadJson('anthropic', 'text') });
    const res = await call('POST', '/chat/completions', owner.key, { body: chat('@preset/coder') });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(upstream.last.path).toBe('/v1/messages');
    expect(upstream.last.body.model).toBe('claude-sonnet-5-5');
    expect(sentSystem()).toBe('Be verbose.');
    expect(upstream.last.body.temperature).toBe(0.7);
    expect(upstream.last.body.max_tokens).toBe(400);
    expect(res.body.model).toBe(CLAUDE);
    expect(res.headers.get('x-modelgate-model')).toBe(CLAUDE);
    const generation = await lastGeneration(org);
    expect(generation.model).toBe(CLAUDE);
    expect(BigInt(generation.cost_nanos)).toBeGreaterThan(0n);
  });

  it('a pinned version serves while a newer one exists', async () => {
    upstream.reply({ kind: 'json', body: loadJson('anthropic', 'text') });
    const res = await call('POST', '/chat/completions', owner.key, { body: chat('@preset/coder@1') });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(sentSystem()).toBe('Be terse.');
    expect(upstream.last.body.temperature).toBe(0.2);
    expect(upstream.last.body.max_tokens).toBe(300);
  });

  it("the request's own fields win over the preset's", async () => {
    upstream.reply({ kind: 'json', body: loadJson('anthropic', 'text') });
    const res = await call('POST', '/chat/completions', owner.key, {
      body: {
        ...chat('@preset/coder', { temperature: 1, max_tokens: 50 }),
        messages: [
          { role: 'system', content: 'My own system prompt.' },
          { role: 'user', content: 'Hi' },
        ],
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(sentSystem()).toBe('My own system prompt.');
    expect(upstream.last.body.temperature).toBe(1);
    expect(upstream.last.body.max_tokens).toBe(50);
  });

  it('Messages (native lane): the preset fills `system` and sampling', async () => {
    upstream.reply({ kind: 'json', body: loadJson('anthropic', 'text') });
    const res = await call('POST', '/messages', owner.key, {
      body: { model: '@preset/coder', max_tokens: 100, messages: [{ role: 'user', content: 'Hi' }] },
      headers: ANTHROPIC,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(upstream.last.path).toBe('/v1/messages');
    expect(upstream.last.body.model).toBe('claude-sonnet-5-5');
    expect(upstream.last.body.system).toBe('Be verbose.');
    expect(upstream.last.body.temperature).toBe(0.7);
    expect(upstream.last.body.max_tokens).toBe(100);
    expect(res.body.model).toBe(CLAUDE);
  });

  it('Responses: the system prompt as `instructions`', async () => {
    upstream.reply({ kind: 'json', body: loadJson('anthropic', 'text') });
    const res = await call('POST', '/responses', owner.key, { body: { model: '@preset/coder@1', input: 'Hi' } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(upstream.last.path).toBe('/v1/messages');
    expect(sentSystem()).toBe('Be terse.');
    expect(upstream.last.body.max_tokens).toBe(300);
    expect(res.body.model).toBe(CLAUDE);
  });

  it('Gemini generateContent and its stream: the preset in the path, the system prompt as `systemInstruction`', async () => {
    upstream.reply({ kind: 'json', body: loadJson('anthropic', 'text') });
    const res = await call('POST', '/gemini/v1beta/models/@preset/coder:generateContent', owner.key, {
      body: { contents: [{ role: 'user', parts: [{ text: 'Hi' }] }] },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(upstream.last.path).toBe('/v1/messages');
    expect(sentSystem()).toBe('Be verbose.');
    expect(upstream.last.body.max_tokens).toBe(400);
    expect(res.body.modelVersion).toBe(CLAUDE);

    upstream.reply({ kind: 'sse', chunks: [fixture('anthropic/text.chunks.txt')] });
    const streamed = await call(
      'POST',
      '/gemini/v1beta/models/@preset/coder@1:streamGenerateContent?alt=sse',
      owner.key,
      {
        body: { contents: [{ role: 'user', parts: [{ text: 'Hi' }] }], generationConfig: { temperature: 0.9 } },
      },
    );
    expect(streamed.status, String(streamed.body)).toBe(200);
    expect(String(streamed.body)).toContain('data: ');
    expect(sentSystem()).toBe('Be terse.');
    expect(upstream.last.body.temperature).toBe(0.9);
    expect(await lastGeneration(org)).toMatchObject({ model: CLAUDE });
  });

  it("an unknown preset or version is a 404, a malformed version a 400, in each door's envelope", async () => {
    const chatMissing = await call('POST', '/chat/completions', owner.key, { body: chat('@preset/ghost') });
    expect(chatMissing.status).toBe(404);
    expect(chatMissing.body.error.metadata.reason).toBe('preset_not_found');
    const chatVersion = await call('POST', '/chat/completions', owner.key, { body: chat('@preset/coder@7') });
    expect(chatVersion.status).toBe(404);
    expect(chatVersion.body.error.metadata).toMatchObject({ reason: 'preset_version_not_found', latest_version: 2 });
    const malformed = await call('POST', '/chat/completions', owner.key, { body: chat('@preset/coder@two') });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.metadata.reason).toBe('invalid_preset_version');
    const messages = await call('POST', '/messages', owner.key, {
      body: { model: '@preset/ghost', max_tokens: 10, messages: [{ role: 'user', content: 'Hi' }] },
      headers: ANTHROPIC,
    });
    expect(messages.status).toBe(404);
    expect(messages.body).toMatchObject({ type: 'error', error: { type: 'not_found_error' } });
    const gemini = await call('POST', '/gemini/v1beta/models/@preset/ghost:generateContent', owner.key, {
      body: { contents: [{ role: 'user', parts: [{ text: 'Hi' }] }] },
    });
    expect(gemini.status).toBe(404);
    expect(gemini.body.error.status).toBe('NOT_FOUND');
    expect(upstream.requests).toHaveLength(0);
  });

  it("a key's allow-list holds for the model the preset serves", async () => {
    const made = await call('POST', '/api-keys', owner.token, {
      body: { name: 'openai-only', allowed_models: ['openai/*'] },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const res = await call('POST', '/chat/completions', made.body.key, { body: chat('@preset/coder') });
    expect(res.status).toBe(403);
    expect(res.body.error.message).toContain(CLAUDE);
    expect(upstream.requests).toHaveLength(0);
  });

  it('the response cache keys on the settings served: a new version is a miss, not the old answer', async () => {
    const save = (system: string) =>
      call('POST', '/presets', owner.token, { body: { slug: 'cached', preset: { model: CLAUDE, system } } });
    const ask = () =>
      call('POST', '/chat/completions', owner.key, {
        body: chat('@preset/cached'),
        headers: { 'x-modelgate-cache': 'on' },
      });
    expect((await save('One.')).status).toBe(201);
    upstream.reply({ kind: 'json', body: loadJson('anthropic', 'text') });
    expect((await ask()).headers.get('x-modelgate-cache')).toBe('miss');
    expect((await ask()).headers.get('x-modelgate-cache')).toBe('hit');
    expect((await save('Two.')).status).toBe(201);
    upstream.reply({ kind: 'json', body: loadJson('anthropic', 'text') });
    const after = await ask();
    expect(after.headers.get('x-modelgate-cache')).toBe('miss');
    expect(sentSystem()).toBe('Two.');
    expect(upstream.requests).toHaveLength(2);
  });

  it("another organization's member cannot use the preset", async () => {
    const res = await call('POST', '/chat/completions', stranger.key, { body: chat('@preset/coder') });
    expect(res.status).toBe(404);
    expect(res.body.error.metadata.reason).toBe('preset_not_found');
    expect(upstream.requests).toHaveLength(0);
  });
});

describe('presets in the listings and token counts', () => {
  it('GET /models lists `@preset/<slug>` for its organization only, in the gateway and Anthropic shapes', async () => {
    const mine = await call('GET', '/models', owner.key);
    expect(mine.body.data.find((m: { id: string }) => m.id === '@preset/coder')).toMatchObject({
      alias_for: CLAUDE,
    });
    const theirs = await call('GET', '/models', stranger.key);
    expect(theirs.body.data.some((m: { id: string }) => m.id.startsWith('@preset/'))).toBe(false);
    const anthropic = await call('GET', '/models?limit=1000', owner.key, { headers: ANTHROPIC });
    expect(anthropic.body.data.map((m: { id: string }) => m.id)).toContain('@preset/coder');
    const one = await call('GET', `/models/${encodeURIComponent('@preset/coder')}`, owner.key);
    expect(one.status, JSON.stringify(one.body)).toBe(200);
    expect(one.body).toMatchObject({ id: '@preset/coder', alias_for: CLAUDE });
    expect((await call('GET', `/models/${encodeURIComponent('@preset/coder')}`, stranger.key)).status).toBe(404);
  });

  it('the Gemini listing and model route show it', async () => {
    const list = await call('GET', '/gemini/v1beta/models?pageSize=1000', owner.key);
    expect(list.body.models.map((m: { name: string }) => m.name)).toContain('models/@preset/coder');
    const one = await call('GET', '/gemini/v1beta/models/@preset/coder', owner.key);
    expect(one.status, JSON.stringify(one.body)).toBe(200);
    expect(one.body.name).toBe('models/@preset/coder');
    const theirs = await call('GET', '/gemini/v1beta/models?pageSize=1000', stranger.key);
    expect(theirs.body.models.map((m: { name: string }) => m.name)).not.toContain('models/@preset/coder');
  });

  it("counts tokens with the preset's system prompt on the Messages and Gemini doors", async () => {
    const bare = { messages: [{ role: 'user', content: 'Hi' }] };
    upstream.reply({ kind: 'json', body: { input_tokens: 12 } });
    const counted = await call('POST', '/messages/count_tokens', owner.key, {
      body: { model: '@preset/coder', ...bare },
      headers: ANTHROPIC,
    });
    expect(counted.status, JSON.stringify(counted.body)).toBe(200);
    expect(upstream.last.path).toBe('/v1/messages/count_tokens');
    expect(upstream.last.body.system).toBe('Be verbose.');
    expect(upstream.last.body.model).toBe('claude-sonnet-5-5');

    upstream.reply({ kind: 'json', body: { input_tokens: 12 } });
    const gemini = await call('POST', '/gemini/v1beta/models/@preset/coder@1:countTokens', owner.key, {
      body: { contents: [{ role: 'user', parts: [{ text: 'Hi' }] }] },
    });
    expect(gemini.status, JSON.stringify(gemini.body)).toBe(200);
    expect(upstream.last.body.system).toBe('Be terse.');
    const missing = await call('POST', '/messages/count_tokens', owner.key, {
      body: { model: '@preset/ghost', ...bare },
      headers: ANTHROPIC,
    });
    expect(missing.status).toBe(404);
  });
});

describe('a change made by another process', () => {
  const operator = () => ({ organizationId: org, actor: OPERATOR, by: CONSOLE_ACTOR });

  /** Waits until this gateway's memory shows `version` of coder (undefined: none), as the notification arrives. */
  async function heard(version: number | undefined): Promise<void> {
    for (let i = 0; i < 200; i++) {
      const found = await gw.parts.presets?.find(org, { slug: 'coder' }).catch(() => undefined);
      if (found?.version === version) return;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  it('a running gateway serves the new version, then refuses the deleted preset', async () => {
    // Saved through the database alone (the CLI, another instance): only its notification tells this gateway.
    const row = await savePreset(gw.db, operator(), {
      catalog: gw.parts.catalog,
      save: { slug: 'coder', preset: { model: CLAUDE, system: 'Version three.' } },
    });
    expect(row.version).toBe(3);
    await heard(3);
    upstream.reply({ kind: 'json', body: loadJson('anthropic', 'text') });
    const res = await call('POST', '/chat/completions', owner.key, { body: chat('@preset/coder') });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(sentSystem()).toBe('Version three.');

    await removePreset(gw.db, operator(), 'coder');
    await heard(undefined);
    const gone = await call('POST', '/chat/completions', owner.key, { body: chat('@preset/coder@1') });
    expect(gone.status).toBe(404);
    expect(gone.body.error.metadata.reason).toBe('preset_not_found');
  });
});
