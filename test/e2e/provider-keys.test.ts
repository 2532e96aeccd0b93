// An organization's own provider keys end to end: set, listed masked, deleted, audited without the key; routing by
// mode (an own key used, then its provider down or refusing it → what each mode does), the shared circuit breaker
// untouched by the organization's failures, the record `byok: true` charged the BYOK fee, and no key text in any
// answer, error or audit entry.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { MockUpstream, openAiSse, type RecordedRequest, type Reply } from '../helpers/mock-upstream.js';
import { createAdminKey } from '../../src/services/admin-keys.js';
import { InMemoryCircuitBreaker } from '../../src/routing/circuit-breaker.js';
import { setProviderKey } from '../../src/services/provider-keys.js';
import { parseMasterKey } from '../../src/auth/secret-box.js';
import { OPERATOR } from '../../src/auth/member-roles.js';
import { CONSOLE_ACTOR } from '../../src/services/audit-log.js';

const OPERATOR_KEY = 'sk-up-operator-key-0001';
const OWN_KEY = 'sk-own-0123456789abcdef-a1b2';
const OTHER_OWN_KEY = 'sk-own-fedcba9876543210-c3d4';
const MASTER = Buffer.alloc(32, 7).toString('base64');
const ENDPOINT = 'openai/gpt-test@openai';

let gw: TestGateway;
let upstream: MockUpstream;
let admin: string;

beforeAll(async () => {
  upstream = await new MockUpstream().start();
  gw = await startTestGateway({
    env: {
      MODELGATE_CATALOG: 'test/fixtures/catalog/test-catalog.json',
      OPENAI_API_KEY: OPERATOR_KEY,
      OPENAI_BASE_URL: `${upstream.url}/v1`,
      MODELGATE_ENCRYPTION_KEY: MASTER,
      MODELGATE_BYOK_FEE: '0.05',
    },
  });
  admin = (await createAdminKey(gw.db, { name: 'ops' })).secret;
});
afterAll(async () => {
  await gw?.close();
  await upstream?.close();
});
beforeEach(() => {
  upstream.reset();
  gw.parts.breaker = new InMemoryCircuitBreaker({ failureThreshold: 1, cooldownMs: 60_000 });
});

/** 5 prompt + 10 completion tokens of openai/gpt-test ($2/M in, $8/M out): 90,000 nano-USD at list price. */
const ok: Reply = {
  kind: 'json',
  body: {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1,
    model: 'gpt-test-2026',
    choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 5, completion_tokens: 10, total_tokens: 15 },
  },
};
const LIST_PRICE_NANOS = 90_000n;

function failure(status: number, message = 'upstream says no'): Reply {
  return { kind: 'json', status, body: { error: { message, type: 'error', code: null } } };
}

const keyOf = (request: RecordedRequest) => String(request.headers.authorization).replace(/^Bearer /, '');

/** The upstream answers each key as the test says. */
function answerBy(replies: { own: Reply; operator: Reply }): void {
  upstream.always((request) => (keyOf(request) === OPERATOR_KEY ? replies.operator : replies.own));
}

async function call(method: string, path: string, key: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await gw.fetch(`/api/v1${path}`, {
    method,
    key,
    headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, text, body: JSON.parse(text) as any, headers: res.headers };
}

async function owner() {
  const user = await gw.createUser();
  await gw.grant(user.userId, 10);
  return { ...user, token: await gw.createToken(user.userId) };
}

function chat(key: string) {
  return call('POST', '/chat/completions', key, {
    model: 'openai/gpt-test',
    messages: [{ role: 'user', content: 'hi' }],
    stream: false,
    max_tokens: 10,
  });
}

/** The key the upstream was called with for one request. */
async function servingKey(key: string): Promise<string> {
  await chat(key);
  return keyOf(upstream.last);
}

async function generation(id: string) {
  await gw.settled();
  return gw.db.selectFrom('generations').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

describe('provider keys API', () => {
  it('sets, lists masked, replaces and deletes a key; audited without it; never answered in clear', async () => {
    const o = await owner();
    const put = await call('PUT', '/provider-keys/openai', o.token, { key: OWN_KEY, mode: 'only' });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ provider: 'openai', key_hint: 'sk-…a1b2', mode: 'only' });
    expect(put.text).not.toContain(OWN_KEY);

    // Every member reads the list, an API key of the organization included; masked.
    const listed = await call('GET', '/provider-keys', o.key);
    expect(listed.status).toBe(200);
    expect(listed.body.data).toEqual([expect.objectContaining({ provider: 'openai', key_hint: 'sk-…a1b2' })]);
    expect(listed.text).not.toContain(OWN_KEY);

    // The mode defaults to prefer; a replaced key shows its own hint.
    const replaced = await call('PUT', '/provider-keys/openai', o.token, { key: OTHER_OWN_KEY });
    expect(replaced.body).toMatchObject({ key_hint: 'sk-…c3d4', mode: 'prefer' });

    const stored = await gw.db.selectFrom('provider_keys').selectAll().executeTakeFirstOrThrow();
    expect(stored.key_ciphertext).not.toContain(OTHER_OWN_KEY);
    expect(stored.key_ciphertext.startsWith(`v1:${parseMasterKey(MASTER)!.id}:`)).toBe(true);

    expect(await call('DELETE', '/provider-keys/openai', o.token)).toMatchObject({
      status: 200,
      body: { deleted: true, provider: 'openai' },
    });
    expect((await call('DELETE', '/provider-keys/openai', o.token)).body.error.metadata.reason).toBe(
      'provider_key_not_found',
    );
    expect((await call('GET', '/provider-keys', o.token)).body.data).toEqual([]);

    const audit = await gw.db
      .selectFrom('audit_log')
      .selectAll()
      .where('organization_id', '=', o.userId)
      .orderBy('id')
      .execute();
    expect(audit.map((a) => a.action)).toEqual(['provider_key.set', 'provider_key.set', 'provider_key.deleted']);
    expect(audit[1].before).toMatchObject({ key_hint: 'sk-…a1b2', mode: 'only' });
    const text = JSON.stringify(audit, (_k, v) => (typeof v === 'bigint' ? String(v) : v));
    expect(text).not.toContain(OWN_KEY);
    expect(text).not.toContain(OTHER_OWN_KEY);
  });

  it('refuses bad input with a 4xx, an API key or a member writing, and never echoes the key', async () => {
    const o = await owner();
    const unknown = await call('PUT', '/provider-keys/acme', o.token, { key: OWN_KEY });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.metadata.reason).toBe('provider_not_found');
    const short = await call('PUT', '/provider-keys/openai', o.token, { key: 'sk-short' });
    expect(short.status).toBe(400);
    expect(short.text).not.toContain('sk-short');
    const spaced = await call('PUT', '/provider-keys/openai', o.token, { key: `${OWN_KEY} x` });
    expect(spaced.status).toBe(400);
    expect(spaced.text).not.toContain(OWN_KEY);
    expect((await call('PUT', '/provider-keys/openai', o.token, { key: OWN_KEY, mode: 'always' })).status).toBe(400);
    expect((await call('PUT', '/provider-keys/openai', o.key, { key: OWN_KEY })).status).toBe(403);

    // A member of an organization reads its keys but does not set them.
    const org = await call('POST', '/admin/organizations', admin, { name: 'Acme', owner_user_id: o.userId });
    const m = await owner();
    await call('PUT', `/admin/organizations/${org.body.id}/members/${m.userId}`, admin, { role: 'member' });
    const inOrg = { 'x-modelgate-organization': org.body.id };
    expect((await call('PUT', '/provider-keys/openai', o.token, { key: OWN_KEY }, inOrg)).status).toBe(200);
    const refused = await call('PUT', '/provider-keys/openai', m.token, { key: OTHER_OWN_KEY }, inOrg);
    expect(refused.status).toBe(403);
    expect(refused.body.error.metadata.reason).toBe('role_required');
    expect((await call('DELETE', '/provider-keys/openai', m.token, undefined, inOrg)).status).toBe(403);
    const seen = await call('GET', '/provider-keys', m.token, undefined, inOrg);
    expect(seen.body.data).toEqual([expect.objectContaining({ provider: 'openai', key_hint: 'sk-…a1b2' })]);
  });
});

describe('routing on an own key', () => {
  it('prefer: the own key serves (byok, charged the fee); its provider down or refusing it → the operator key', async () => {
    const o = await owner();
    await call('PUT', '/provider-keys/openai', o.token, { key: OWN_KEY, mode: 'prefer' });
    answerBy({ own: ok, operator: ok });
    const served = await chat(o.key);
    expect(served.status).toBe(200);
    expect(upstream.requests.map(keyOf)).toEqual([OWN_KEY]);
    const record = await generation(served.body.id);
    expect(record.byok).toBe(true);
    // MODELGATE_BYOK_FEE=0.05: 5 % of the list price, instead of it.
    expect(record.cost_nanos).toBe((LIST_PRICE_NANOS * 5n) / 100n);
    const wire = await call('GET', `/generation?id=${served.body.id}`, o.key);
    expect(wire.body.data).toMatchObject({ byok: true, total_cost: 0.0000045 });

    for (const own of [failure(503), failure(401, `Incorrect API key provided: ${OWN_KEY}`), failure(429)]) {
      upstream.reset();
      answerBy({ own, operator: ok });
      const res = await chat(o.key);
      expect(res.status).toBe(200);
      expect(upstream.requests.map(keyOf)).toEqual([OWN_KEY, OPERATOR_KEY]);
      // The organization learns why its key did not serve, without the vendor's text.
      expect(res.headers.get('x-modelgate-warning')).toMatch(
        /^The organization's own openai key (was refused \(HTTP 401\)|was rate-limited|failed \(HTTP 503\)); served on the gateway's key$/,
      );
      const fellBack = await generation(res.body.id);
      expect(fellBack.byok).toBe(false);
      expect(fellBack.cost_nanos).toBe(LIST_PRICE_NANOS);
      expect(JSON.stringify(fellBack.attempts)).not.toContain(OWN_KEY);
    }
    // The organization's failures are its own: the shared breaker (threshold 1) never opened for everyone else.
    expect(gw.parts.breaker.state(ENDPOINT)).toBe('closed');
  });

  it("only: never the operator's key; a refusal names the organization's key, without its text", async () => {
    const o = await owner();
    await call('PUT', '/provider-keys/openai', o.token, { key: OWN_KEY, mode: 'only' });
    answerBy({ own: failure(401, `Incorrect API key provided: ${OWN_KEY}`), operator: ok });
    const refused = await chat(o.key);
    expect(refused.status).toBe(403);
    expect(refused.body.error.metadata).toMatchObject({ reason: 'provider_key_rejected', organization_key: true });
    expect(refused.body.error.message).toMatch(/organization's own openai key/);
    expect(refused.text).not.toContain(OWN_KEY);
    expect(upstream.requests.map(keyOf)).toEqual([OWN_KEY]);
    const record = await generation(refused.headers.get('x-generation-id')!);
    expect(record.error_message).not.toContain(OWN_KEY);

    upstream.reset();
    answerBy({ own: failure(429), operator: ok });
    const limited = await chat(o.key);
    expect(limited.status).toBe(429);
    expect(limited.body.error.metadata.reason).toBe('provider_key_rate_limited');
    expect(upstream.requests.map(keyOf)).toEqual([OWN_KEY]);

    // The provider down: its own error, with the key cut out of the vendor's text.
    upstream.reset();
    answerBy({ own: failure(500, `server exploded near ${OWN_KEY}`), operator: ok });
    const down = await chat(o.key);
    expect(down.status).toBeGreaterThanOrEqual(500);
    expect(down.text).not.toContain(OWN_KEY);
    expect(upstream.requests.every((r) => keyOf(r) === OWN_KEY)).toBe(true);
    expect(gw.parts.breaker.state(ENDPOINT)).toBe('closed');
  });

  it("fallback: the operator's key first; the own key when the operator's endpoint is down or its circuit open", async () => {
    const o = await owner();
    await call('PUT', '/provider-keys/openai', o.token, { key: OWN_KEY, mode: 'fallback' });
    answerBy({ own: ok, operator: ok });
    const first = await chat(o.key);
    expect(upstream.requests.map(keyOf)).toEqual([OPERATOR_KEY]);
    expect((await generation(first.body.id)).byok).toBe(false);

    upstream.reset();
    answerBy({ own: ok, operator: failure(503) });
    const down = await chat(o.key);
    expect(down.status).toBe(200);
    expect(upstream.requests.map(keyOf)).toEqual([OPERATOR_KEY, OWN_KEY]);
    expect((await generation(down.body.id)).byok).toBe(true);

    // The operator's failure opened the shared breaker (threshold 1): the own key serves without asking it.
    expect(gw.parts.breaker.state(ENDPOINT)).toBe('open');
    upstream.reset();
    answerBy({ own: ok, operator: ok });
    const open = await chat(o.key);
    expect(open.status).toBe(200);
    expect(upstream.requests.map(keyOf)).toEqual([OWN_KEY]);

    // Another organization, without a key of its own, is refused while the circuit is open.
    const other = await owner();
    expect((await chat(other.key)).status).toBe(503);
  });

  it('a key set or deleted by another process takes effect on the next request (database notification)', async () => {
    const o = await owner();
    answerBy({ own: ok, operator: ok });
    await chat(o.key);
    expect(upstream.requests.map(keyOf)).toEqual([OPERATOR_KEY]);
    // Not through this gateway's API: only the notification can tell its cache.
    await setProviderKey(gw.db, OPERATOR, {
      organizationId: o.userId,
      provider: 'openai',
      key: OWN_KEY,
      mode: 'only',
      knownProviders: ['openai'],
      masterKey: parseMasterKey(MASTER),
      by: CONSOLE_ACTOR,
    });
    await expect.poll(() => servingKey(o.key)).toBe(OWN_KEY);
    await gw.db.deleteFrom('provider_keys').where('organization_id', '=', o.userId).execute();
    await expect.poll(() => servingKey(o.key)).toBe(OPERATOR_KEY);
  });

  it('the own key goes only to its provider: other providers of the organization use the operator keys', async () => {
    const o = await owner();
    await call('PUT', '/provider-keys/mistral', o.token, { key: OWN_KEY, mode: 'only' });
    answerBy({ own: ok, operator: ok });
    await chat(o.key);
    expect(upstream.requests.map(keyOf)).toEqual([OPERATOR_KEY]);
    expect(JSON.stringify(upstream.requests.map((r) => [r.headers, r.rawBody]))).not.toContain(OWN_KEY);
  });
});

describe('streams and logs', () => {
  it('streams an answer on the own key, recorded byok; no log line of the whole file holds a key', async () => {
    const o = await owner();
    await call('PUT', '/provider-keys/openai', o.token, { key: OWN_KEY, mode: 'only' });
    const delta = (content: string) => ({
      id: 'chatcmpl-s',
      object: 'chat.completion.chunk',
      created: 1,
      model: 'gpt-test-2026',
      choices: [{ index: 0, delta: { content }, finish_reason: null }],
    });
    const usage = {
      id: 'chatcmpl-s',
      object: 'chat.completion.chunk',
      created: 1,
      model: 'gpt-test-2026',
      choices: [{ index: 0, delta: {}, finish_reason: 'stop' }],
      usage: { prompt_tokens: 5, completion_tokens: 10, total_tokens: 15 },
    };
    const stream: Reply = { kind: 'sse', chunks: openAiSse([delta('o'), delta('k'), usage]) };
    answerBy({ own: stream, operator: ok });
    const res = await gw.fetch('/api/v1/chat/completions', {
      method: 'POST',
      key: o.key,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'openai/gpt-test', messages: [{ role: 'user', content: 'hi' }], stream: true }),
    });
    const text = await res.text();
    expect(res.status).toBe(200);
    expect(text).toContain('[DONE]');
    expect(text).not.toContain(OWN_KEY);
    expect(upstream.requests.map(keyOf)).toEqual([OWN_KEY]);
    const record = await generation(res.headers.get('x-generation-id')!);
    expect(record).toMatchObject({ byok: true, status: 'success', cost_nanos: (LIST_PRICE_NANOS * 5n) / 100n });
    const logs = gw.logs.join('\n');
    expect(logs).not.toContain(OWN_KEY);
    expect(logs).not.toContain(OTHER_OWN_KEY);
  });
});

describe('the default BYOK fee', () => {
  it('serves an organization without credits on its own key at no charge, still recorded and metered', async () => {
    const free = await startTestGateway({
      env: {
        MODELGATE_CATALOG: 'test/fixtures/catalog/test-catalog.json',
        OPENAI_API_KEY: OPERATOR_KEY,
        OPENAI_BASE_URL: `${upstream.url}/v1`,
        MODELGATE_ENCRYPTION_KEY: MASTER,
      },
    });
    try {
      const user = await free.createUser();
      const token = await free.createToken(user.userId);
      const request = (key: string) =>
        free.fetch('/api/v1/chat/completions', {
          method: 'POST',
          key,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            model: 'openai/gpt-test',
            messages: [{ role: 'user', content: 'hi' }],
            stream: false,
          }),
        });
      answerBy({ own: ok, operator: ok });
      // No credits: the operator's key is refused.
      expect((await request(user.key)).status).toBe(402);
      const put = await free.fetch('/api/v1/provider-keys/openai', {
        method: 'PUT',
        key: token,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ key: OWN_KEY, mode: 'only' }),
      });
      expect(put.status).toBe(200);
      const res = await request(user.key);
      expect(res.status).toBe(200);
      const body = (await res.json()) as { id: string };
      expect(upstream.requests.map(keyOf)).toEqual([OWN_KEY]);
      const record = await free.db
        .selectFrom('generations')
        .selectAll()
        .where('id', '=', body.id)
        .executeTakeFirstOrThrow();
      expect(record).toMatchObject({ byok: true, cost_nanos: 0n, prompt_tokens: 5, completion_tokens: 10 });
    } finally {
      await free.close();
    }
  });
});
