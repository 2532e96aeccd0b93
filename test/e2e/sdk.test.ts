// The generated client SDK, as a package: `make sdk`'s builder writes it into a scratch folder, and the compiled
// JavaScript (not the TypeScript sources) drives the running gateway: keys, errors, chat JSON and chat streams.
import { existsSync, rmSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildSdkPackage, type BuiltPackage } from '../../src/sdk/build/build-package.js';
import type * as Sdk from '../../src/sdk/lib/index.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { MockUpstream, openAiSse } from '../helpers/mock-upstream.js';
import { createAdminKey } from '../../src/services/admin-keys.js';

// Inside the repository (git-ignored), so the package's `openapi-fetch` import resolves to this node_modules.
const OUT = new URL(`../../.test-data/sdk-package-${process.pid}/`, import.meta.url).pathname;

let built: BuiltPackage;
let sdk: typeof Sdk;
let gw: TestGateway;
let upstream: MockUpstream;
let user: { userId: string; email: string; key: string; keyId: string };
let client: Sdk.ModelgateClient;
/** Key management takes the account token or a management key: this client holds a management key. */
let manager: Sdk.ModelgateClient;

beforeAll(async () => {
  built = buildSdkPackage(OUT);
  sdk = (await import(`${OUT}dist/index.js`)) as typeof Sdk;
  upstream = await new MockUpstream().start();
  gw = await startTestGateway({
    env: {
      MODELGATE_CATALOG: 'test/fixtures/catalog/test-catalog.json',
      OPENAI_API_KEY: 'sk-up',
      OPENAI_BASE_URL: `${upstream.url}/v1`,
    },
  });
  user = await gw.createUser();
  await gw.grant(user.userId, 5);
  client = sdk.createModelgateClient({ baseUrl: `${gw.url}/api/v1/`, apiKey: user.key, appTitle: 'SDK test' });
  const token = sdk.createModelgateClient({ baseUrl: `${gw.url}/api/v1/`, apiKey: await gw.createToken(user.userId) });
  const managementKey = await sdk.unwrap(
    token.POST('/api-keys', { body: { name: 'provisioner', kind: 'management' } }),
  );
  manager = sdk.createModelgateClient({ baseUrl: `${gw.url}/api/v1/`, apiKey: managementKey.key });
});
afterAll(async () => {
  await gw?.close();
  await upstream?.close();
  rmSync(OUT, { recursive: true, force: true });
});
beforeEach(() => upstream.reset());

const reply = (content: string) => ({
  id: 'chatcmpl-sdk',
  object: 'chat.completion',
  created: 1,
  model: 'gpt-test-2026',
  choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 9, completion_tokens: 2, total_tokens: 11 },
});
const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
  id: 'chatcmpl-sdk',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'gpt-test-2026',
  choices: [{ index: 0, delta, finish_reason: finish }],
});
const usage = { ...chunk({}), choices: [], usage: { prompt_tokens: 4, completion_tokens: 3, total_tokens: 7 } };

describe('the built package', () => {
  it('is a self-contained ES module package with declarations and its OpenAPI document', () => {
    expect(built.packageJson).toMatchObject({
      name: '@modelgate/sdk',
      type: 'module',
      license: 'Apache-2.0',
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
    });
    expect(built.packageJson.dependencies).toEqual({ 'openapi-fetch': expect.stringMatching(/^\^?0\.\d+/) });
    for (const file of [
      'dist/index.js',
      'dist/index.d.ts',
      'dist/openapi-types.d.ts',
      'src/openapi-types.ts',
      'openapi.json',
      'README.md',
      'LICENSE',
    ]) {
      expect(existsSync(`${OUT}${file}`), file).toBe(true);
    }
  });
});

describe('key limits and the operator API through the typed client', () => {
  it("patches a key's limit and drives /admin routes with an admin key", async () => {
    const created = await sdk.unwrap(
      manager.POST('/api-keys', { body: { name: 'limited', limit: 1.5, limit_reset: 'daily' } }),
    );
    expect(created).toMatchObject({ kind: 'inference', limit: 1.5, limit_remaining: 1.5, limit_reset: 'daily' });
    const patched = await sdk.unwrap(
      manager.PATCH('/api-keys/{key_id}', { params: { path: { key_id: created.key_id } }, body: { disabled: true } }),
    );
    expect(patched.disabled).toBe(true);

    const admin = sdk.createModelgateClient({
      baseUrl: `${gw.url}/api/v1`,
      apiKey: (await createAdminKey(gw.db, { name: 'sdk' })).secret,
    });
    const found = await sdk.unwrap(admin.GET('/admin/users', { params: { query: { email: user.email } } }));
    expect(found.data.map((u) => u.user_id)).toEqual([user.userId]);
    const keys = await sdk.unwrap(
      admin.GET('/admin/users/{user_id}/keys', { params: { path: { user_id: user.userId } } }),
    );
    expect(keys.data.find((k) => k.key_id === created.key_id)?.disabled).toBe(true);
    const adjusted = await sdk.unwrap(
      admin.POST('/admin/users/{user_id}/credits', {
        params: { path: { user_id: user.userId } },
        body: { amount: 1, note: 'sdk' },
      }),
    );
    expect(adjusted.amount).toBe(1);
    // A user key on an admin route: 403, typed as a ModelgateError.
    const refused = await sdk
      .unwrap(client.GET('/admin/users', { params: { query: {} } }))
      .catch((err: unknown) => err);
    expect(refused).toMatchObject({ status: 403 });
  });
});

describe('keys through the typed client', () => {
  it('creates, lists and deletes keys; a deleted key stops working', async () => {
    const created = await sdk.unwrap(manager.POST('/api-keys', { body: { name: 'sdk-made' } }));
    expect(created.key).toMatch(/^mg-v1-/);

    const listed = await sdk.unwrap(client.GET('/api-keys'));
    expect(listed.data.map((k) => k.key_id)).toEqual(expect.arrayContaining([user.keyId, created.key_id]));
    expect(JSON.stringify(listed)).not.toContain(created.key);

    const deleted = await sdk.unwrap(
      manager.DELETE('/api-keys/{key_id}', { params: { path: { key_id: created.key_id } } }),
    );
    expect(deleted).toEqual({ deleted: true, key_id: created.key_id });
    const after = await sdk.unwrap(client.GET('/api-keys'));
    expect(after.data.map((k) => k.key_id)).not.toContain(created.key_id);

    const revoked = sdk.createModelgateClient({ baseUrl: `${gw.url}/api/v1`, apiKey: created.key });
    const failure = await sdk.unwrap(revoked.GET('/api-keys')).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(sdk.ModelgateError);
    expect(failure).toMatchObject({
      status: 401,
      code: 401,
      retryable: false,
      requestId: expect.stringMatching(/^req_/),
    });
  });

  it('refuses key management with an API key as a typed 403 naming the credential needed', async () => {
    const failure = await sdk
      .unwrap(client.POST('/api-keys', { body: { name: 'escape' } }))
      .catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(sdk.ModelgateError);
    expect(failure).toMatchObject({
      status: 403,
      retryable: false,
      metadata: { reason: 'management_credential_required' },
    });
    expect((failure as Error).message).toContain('management key');
  });

  it('turns an error envelope into ModelgateError with the gateway message and metadata', async () => {
    const failure = await sdk
      .unwrap(manager.DELETE('/api-keys/{key_id}', { params: { path: { key_id: 'key_missing' } } }))
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(sdk.ModelgateError);
    expect(failure).toMatchObject({
      status: 404,
      message: 'API key key_missing not found',
      metadata: { key_id: 'key_missing' },
    });
  });
});

describe('chat completions', () => {
  it('returns one JSON completion and sends the attribution header', async () => {
    upstream.reply({ kind: 'json', body: reply('Hello from SDK') });
    const completion = await sdk.createChatCompletion(
      client,
      { model: 'openai/gpt-test', messages: [{ role: 'user', content: 'Hi' }] },
      { taskId: 'task-7' },
    );
    expect(completion.choices[0].message.content).toBe('Hello from SDK');
    expect(completion.usage?.prompt_tokens).toBe(9);
    expect(upstream.last.body.stream).not.toBe(true);

    // The generation record shows the X-Title and X-Task-ID the client sent (records settle just after the reply).
    let record: Sdk.Generation | undefined;
    for (let attempt = 0; attempt < 50 && !record; attempt++) {
      const { data } = await client.GET('/generation', { params: { query: { id: completion.id } } });
      record = data;
      if (!record) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(record?.data).toMatchObject({ app_title: 'SDK test', task_id: 'task-7', streamed: false });
  });

  it('streams ChatCompletionChunk objects through the async iterator', async () => {
    upstream.reply({
      kind: 'sse',
      chunks: openAiSse([
        chunk({ role: 'assistant', content: '' }),
        chunk({ content: 'Hel' }),
        chunk({ content: 'lo' }),
        chunk({}, 'stop'),
        usage,
      ]),
    });
    const chunks: Sdk.ChatCompletionChunk[] = [];
    for await (const part of sdk.streamChatCompletion(client, {
      model: 'openai/gpt-test',
      messages: [{ role: 'user', content: 'Hi' }],
    })) {
      chunks.push(part);
    }
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')).toBe('Hello');
    expect(chunks[0].choices[0].delta.role).toBe('assistant');
    expect(chunks.some((c) => c.choices[0]?.finish_reason === 'stop')).toBe(true);
    expect(chunks.at(-1)?.usage).toMatchObject({ prompt_tokens: 4, completion_tokens: 3 });
    expect(upstream.last.body.stream).toBe(true);
  });

  it('throws ModelgateError before the first chunk when the gateway refuses the request', async () => {
    const iterate = async () => {
      for await (const part of sdk.streamChatCompletion(client, {
        model: 'openai/no-such-model',
        messages: [{ role: 'user', content: 'Hi' }],
      })) {
        void part;
      }
    };
    await expect(iterate()).rejects.toMatchObject({ name: 'ModelgateError', status: 404 });
    expect(upstream.requests).toHaveLength(0);
  });

  it('cancels the request, upstream included, when the consumer stops iterating', async () => {
    upstream.reply({
      kind: 'sse',
      chunks: [
        ...openAiSse([chunk({ role: 'assistant', content: 'first' })], false),
        { pauseMs: 5_000 },
        ...openAiSse([chunk({}, 'stop')]),
      ],
    });
    let seen = '';
    for await (const part of sdk.streamChatCompletion(client, {
      model: 'openai/gpt-test',
      messages: [{ role: 'user', content: 'Hi' }],
    })) {
      seen += part.choices[0]?.delta.content ?? '';
      if (seen) break;
    }
    expect(seen).toBe('first');
    const deadline = Date.now() + 3_000;
    while (upstream.closedConnections === 0 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(upstream.closedConnections).toBe(1);
  });
});
