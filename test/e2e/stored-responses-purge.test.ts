// DELETE /api/v1/responses: a member deletes every stored response it created in the organization its credential acts
// in, and nobody else's (another member's in the same organization stay readable); a purged response cannot be read or
// continued; a management key is refused.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { issueApiKey } from '../../src/auth/issue-credentials.js';
import { putMembership } from '../../src/repositories/organizations.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { MockUpstream } from '../helpers/mock-upstream.js';

let gw: TestGateway;
let upstream: MockUpstream;

beforeAll(async () => {
  upstream = await new MockUpstream().start();
  gw = await startTestGateway({ env: { OPENAI_API_KEY: 'sk-up', OPENAI_BASE_URL: `${upstream.url}/v1` } });
});
afterAll(async () => {
  await gw?.close();
  await upstream?.close();
});

const ANSWER = {
  id: 'resp_upstream_1',
  object: 'response',
  created_at: 1795600000,
  status: 'completed',
  error: null,
  incomplete_details: null,
  model: 'gpt-5.5-2026-04-23',
  output: [
    {
      id: 'msg_up_1',
      type: 'message',
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', annotations: [], text: 'Done.' }],
    },
  ],
  previous_response_id: null,
  store: false,
  usage: { input_tokens: 20, input_tokens_details: { cached_tokens: 0 }, output_tokens: 3, total_tokens: 23 },
};

async function call(method: string, path: string, key: string, body?: unknown) {
  const res = await gw.fetch(`/api/v1${path}`, {
    method,
    key,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}

async function stored(key: string, previous?: string): Promise<string> {
  upstream.reply({ kind: 'json', body: ANSWER });
  const res = await call('POST', '/responses', key, {
    model: 'openai/gpt-5.5',
    input: 'Say done',
    ...(previous ? { previous_response_id: previous } : {}),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.id;
}

it("deletes the caller's own stored responses in its organization, not another member's", async () => {
  const owner = await gw.createUser();
  await gw.grant(owner.userId, 10);
  const colleague = await gw.createUser();
  await putMembership(gw.db, { organizationId: owner.userId, userId: colleague.userId, role: 'member' });
  const colleagueKey = (
    await issueApiKey(gw.db, { organizationId: owner.userId, memberUserId: colleague.userId, name: 'ci' })
  ).secret;
  const first = await stored(owner.key);
  const second = await stored(owner.key, first);
  const theirs = await stored(colleagueKey);

  expect(await call('DELETE', '/responses', owner.key)).toEqual({
    status: 200,
    body: { object: 'response.purge', deleted: 2 },
  });
  for (const id of [first, second]) expect((await call('GET', `/responses/${id}`, owner.key)).status).toBe(404);
  // Nothing of the purged chain is left to continue, in the database or in the gateway's memory of it.
  const continued = await call('POST', '/responses', owner.key, {
    model: 'openai/gpt-5.5',
    input: 'Go on',
    previous_response_id: second,
  });
  expect(continued).toMatchObject({ status: 400, body: { error: { code: 'previous_response_not_found' } } });
  expect((await call('GET', `/responses/${theirs}`, colleagueKey)).body).toMatchObject({ id: theirs, store: true });

  expect((await call('DELETE', '/responses', owner.key)).body).toEqual({ object: 'response.purge', deleted: 0 });
  expect((await call('DELETE', '/responses', colleagueKey)).body).toEqual({ object: 'response.purge', deleted: 1 });
});

it('a management key is refused, and deletes nothing', async () => {
  const user = await gw.createUser();
  await gw.grant(user.userId, 10);
  const id = await stored(user.key);
  const manager = await issueApiKey(gw.db, {
    organizationId: user.userId,
    memberUserId: user.userId,
    name: 'keys',
    kind: 'management',
  });
  const refused = await call('DELETE', '/responses', manager.secret);
  expect(refused).toMatchObject({
    status: 403,
    body: { error: { metadata: { reason: 'inference_credential_required' } } },
  });
  expect((await call('GET', `/responses/${id}`, user.key)).status).toBe(200);
});
