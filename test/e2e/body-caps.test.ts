// Each operation's body cap held against the largest request a client legitimately sends to it: an embeddings batch
// (64 chunks of 2,000 characters, and 2,048 inputs of about OpenAI's per-request token total) passes; a key with an
// allow-list of 1,000 patterns of the longest length the schema takes is created and updated; the operator's small
// settings take their largest escaped text and refuse a body past their own small cap.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { MockUpstream } from '../helpers/mock-upstream.js';
import { createAdminKey } from '../../src/services/admin-keys.js';

let gw: TestGateway;
let upstream: MockUpstream;
let user: Awaited<ReturnType<TestGateway['createUser']>>;
let token: string;
let admin: string;

beforeAll(async () => {
  upstream = await new MockUpstream().start();
  gw = await startTestGateway({
    env: {
      MODELGATE_CATALOG: 'test/fixtures/catalog/embeddings-catalog.json',
      OPENAI_API_KEY: 'sk-up',
      OPENAI_BASE_URL: `${upstream.url}/v1`,
    },
  });
  user = await gw.createUser();
  await gw.grant(user.userId, 50);
  token = await gw.createToken(user.userId);
  admin = (await createAdminKey(gw.db, { name: 'ops' })).secret;
});
afterAll(async () => {
  await gw?.close();
  await upstream?.close();
});
beforeEach(() => upstream.reset());

const send = (method: string, path: string, key: string, body: string) =>
  gw.fetch(`/api/v1${path}`, { method, key, headers: { 'content-type': 'application/json' }, body });

/** The vendor's answer to `count` inputs. */
function vectors(count: number) {
  return {
    kind: 'json' as const,
    body: {
      object: 'list',
      model: 'text-embedding-3-small',
      data: Array.from({ length: count }, (_, index) => ({ object: 'embedding', index, embedding: [0.1, 0.2] })),
      usage: { prompt_tokens: count, total_tokens: count },
    },
  };
}

/** Text of `length` characters, varied so that it is not one repeated byte. */
const chunkText = (i: number, length: number) =>
  `chunk ${i}: ${'lorem ipsum dolor sit amet '.repeat(Math.ceil(length / 27))}`.slice(0, length);

describe('generation doors: embeddings take a real batch', () => {
  it('a retrieval batch of 64 chunks of 2,000 characters is embedded', async () => {
    upstream.always(vectors(64));
    const input = Array.from({ length: 64 }, (_, i) => chunkText(i, 2000));
    const res = await send(
      'POST',
      '/embeddings',
      user.key,
      JSON.stringify({ model: 'openai/text-embedding-3-small', input }),
    );
    const body: any = await res.json();
    expect(res.status, JSON.stringify(body).slice(0, 300)).toBe(200);
    expect(body.data).toHaveLength(64);
    expect(upstream.last.body.input).toEqual(input);
  });

  it('2,048 inputs of 600 characters (~1.2 MB, about the 300,000 tokens OpenAI takes in one request) are embedded', async () => {
    upstream.always(vectors(2048));
    const input = Array.from({ length: 2048 }, (_, i) => chunkText(i, 600));
    const body = JSON.stringify({ model: 'openai/text-embedding-3-small', input });
    expect(Buffer.byteLength(body)).toBeGreaterThan(1_200_000);
    const res = await send('POST', '/embeddings', user.key, body);
    expect(res.status).toBe(200);
    expect(((await res.json()) as any).data).toHaveLength(2048);
  });
});

describe("a key's settings take the largest allow-list the schema allows", () => {
  // 1,000 patterns of 200 characters: the schema's maxItems and maxLength.
  const longest = Array.from({ length: 1000 }, (_, i) => `openai/${String(i).padStart(4, '0')}-${'m'.repeat(188)}`);

  it('creates and updates such a key with the account token, and the operator does too', async () => {
    expect(longest.every((pattern) => pattern.length === 200)).toBe(true);
    const settings = {
      name: 'n'.repeat(100),
      limit: 1_000_000_000,
      limit_reset: 'monthly',
      expires_at: '2099-12-31T23:59:59.999Z',
      allowed_models: longest,
    };
    const pretty = JSON.stringify(settings, null, 2);
    expect(Buffer.byteLength(pretty)).toBeGreaterThan(200 * 1024);
    const created = await send('POST', '/api-keys', token, pretty);
    const key: any = await created.json();
    expect(created.status, JSON.stringify(key).slice(0, 300)).toBe(201);
    expect(key.allowed_models).toHaveLength(1000);
    const updated = await send(
      'PATCH',
      `/api-keys/${key.key_id}`,
      token,
      JSON.stringify({ allowed_models: [...longest].reverse() }),
    );
    expect(updated.status).toBe(200);
    const byOperator = await send('POST', `/admin/users/${user.userId}/keys`, admin, pretty);
    expect(byOperator.status).toBe(201);
    const operatorKey: any = await byOperator.json();
    expect(
      (
        await send(
          'PATCH',
          `/admin/users/${user.userId}/keys/${operatorKey.key_id}`,
          admin,
          pretty.replace('"monthly"', '"daily"'),
        )
      ).status,
    ).toBe(200);
  });

  it('refuses a pattern longer than 200 characters (400) and a body past 256 KiB (413)', async () => {
    const tooLong = await send(
      'POST',
      '/api-keys',
      token,
      JSON.stringify({ allowed_models: [`openai/${'m'.repeat(194)}`] }),
    );
    expect(tooLong.status).toBe(400);
    const oversized = await send('POST', '/api-keys', token, JSON.stringify({ name: 'n'.repeat(256 * 1024) }));
    expect(oversized.status).toBe(413);
    expect(((await oversized.json()) as any).error.metadata.limit_bytes).toBe(256 * 1024);
  });
});

describe("the operator's small settings", () => {
  it('take their largest text written as \\u escapes, and refuse a body past 16 KiB', async () => {
    // 500 characters outside the BMP, each written as a surrogate pair of escapes: 12 bytes a character.
    const note = JSON.stringify('😀'.repeat(500)).replace(
      /[\ud800-\udfff]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16)}`,
    );
    const largest = `{"amount": 1, "note": ${note}}`;
    expect(Buffer.byteLength(largest)).toBeGreaterThan(6000);
    const adjusted = await send('POST', `/admin/users/${user.userId}/credits`, admin, largest);
    expect(adjusted.status, await adjusted.clone().text()).toBe(200);
    const address = `${'a'.repeat(300)}@example.com`;
    const created = await send(
      'POST',
      '/admin/users',
      admin,
      JSON.stringify({ email: address }).replace(/a/g, '\\u0061'),
    );
    expect(created.status).toBe(201);

    const padded = `{"amount": 1, "note": "x"${' '.repeat(16 * 1024)}}`;
    const refused = await send('POST', `/admin/users/${user.userId}/credits`, admin, padded);
    expect(refused.status).toBe(413);
    expect(((await refused.json()) as any).error.metadata.limit_bytes).toBe(16 * 1024);
    const grant = await send(
      'POST',
      `/admin/users/${user.userId}/pass`,
      admin,
      `{"months": 1${' '.repeat(16 * 1024)}}`,
    );
    expect(grant.status).toBe(413);
  });
});
