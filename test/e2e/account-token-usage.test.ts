// A request made with the account auth token (no key) is recorded under its user as the member: the organization's
// usage report, the operator's report and the member's own usage, records and activity put it there, and the member's
// budget is charged for it as for the member's keys.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayWithUpstream, type TestGateway } from '../helpers/gateway.js';
import type { MockUpstream } from '../helpers/mock-upstream.js';

let gw: TestGateway;
let upstream: MockUpstream;
let admin: string;

let close: () => Promise<void>;

beforeAll(async () => {
  ({ gw, upstream, admin, close } = await startGatewayWithUpstream());
});
afterAll(() => close?.());

/** 1000 prompt + 1000 completion tokens of openai/gpt-test ($2/M in, $8/M out): 0.01 USD. */
const ANSWER = {
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 1,
  model: 'gpt-test-2026',
  choices: [{ index: 0, message: { role: 'assistant', content: 'hello' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 1000, completion_tokens: 1000, total_tokens: 2000 },
};

function call(method: string, path: string, key: string, body?: unknown, headers: Record<string, string> = {}) {
  return gw.api({ method, path, key, body, headers });
}

async function chat(credential: string, headers: Record<string, string> = {}): Promise<string> {
  upstream.reply({ kind: 'json', body: ANSWER });
  const res = await call(
    'POST',
    '/chat/completions',
    credential,
    { model: 'openai/gpt-test', messages: [{ role: 'user', content: 'hi' }], stream: false },
    headers,
  );
  expect(res.status).toBe(200);
  return res.body.id as string;
}

const DAY = 86_400_000;
const groups = (body: any) => Object.fromEntries(body.data.map((r: any) => [r.group, [r.requests, r.cost]]));

describe('requests made with the account auth token', () => {
  it("count under the token's user in every usage report, and in that member's budget", async () => {
    const owner = await gw.createUser();
    const ada = await gw.createUser();
    const ownerToken = await gw.createToken(owner.userId);
    const adaToken = await gw.createToken(ada.userId);
    const org = (await call('POST', '/admin/organizations', admin, { name: 'Acme', owner_user_id: owner.userId })).body
      .id as string;
    await call('PUT', `/admin/organizations/${org}/members/${ada.userId}`, admin, { role: 'member' });
    await gw.grant(org, 5);
    // Ada's own budget in Acme: her account-token requests spend it too.
    const budget = await call('PUT', `/organizations/${org}/members/${ada.userId}/budget`, ownerToken, {
      limit_usd: 1,
      reset: 'monthly',
    });
    expect(budget.status).toBe(200);
    const ownerKey = (await call('POST', '/api-keys', ownerToken, { organization_id: org, name: 'o' })).body;

    await chat(ownerKey.key);
    const adaGeneration = await chat(adaToken, { 'x-modelgate-organization': org });
    await chat(adaToken, { 'x-modelgate-organization': org });
    await gw.settled();

    const midnight = Math.floor(Date.now() / DAY) * DAY;
    const ranges = [
      // Whole UTC days: the daily totals.
      `from=${new Date(midnight - DAY).toISOString()}&to=${new Date(midnight + DAY).toISOString()}`,
      // Inside a day: the records.
      `from=${new Date(Date.now() - 3_600_000).toISOString()}&to=${new Date(Date.now() + 3_600_000).toISOString()}`,
    ];
    for (const range of ranges) {
      const byMember = await call('GET', `/organizations/${org}/usage?${range}&group_by=member`, ownerToken);
      expect(byMember.status).toBe(200);
      expect(groups(byMember.body)).toEqual({ [owner.userId]: [1, 0.01], [ada.userId]: [2, 0.02] });
      // By key, the token's requests stay keyless.
      const byKey = await call('GET', `/organizations/${org}/usage?${range}&group_by=key`, ownerToken);
      expect(groups(byKey.body)).toEqual({ [ownerKey.key_id]: [1, 0.01], null: [2, 0.02] });
      // A member reads its own usage: its token's requests included.
      const own = await call('GET', `/organizations/${org}/usage?${range}&group_by=member`, adaToken);
      expect(groups(own.body)).toEqual({ [ada.userId]: [2, 0.02] });
      const named = await call(
        'GET',
        `/organizations/${org}/usage?${range}&group_by=model&member_id=${ada.userId}`,
        ownerToken,
      );
      expect(groups(named.body)).toEqual({ 'openai/gpt-test': [2, 0.02] });
      const operator = await call('GET', `/admin/usage?${range}&group_by=member&organization_id=${org}`, admin);
      expect(groups(operator.body)).toEqual({ [owner.userId]: [1, 0.01], [ada.userId]: [2, 0.02] });
    }

    // Ada's records and activity in Acme, read as a member, hold her token's requests.
    const orgHeader = { 'x-modelgate-organization': org };
    const generation = await call('GET', `/generation?id=${adaGeneration}`, adaToken, undefined, orgHeader);
    expect(generation.status).toBe(200);
    const activity = await call('GET', '/activity', adaToken, undefined, orgHeader);
    expect(activity.status).toBe(200);
    expect(activity.body.data.reduce((n: number, day: any) => n + day.requests, 0)).toBe(2);

    // Her member budget was charged for both (the owner's key request is not hers).
    const spend = await gw.db
      .selectFrom('budget_spend')
      .select('spent_nanos')
      .where('budget_id', '=', `member:${org}:${ada.userId}`)
      .executeTakeFirstOrThrow();
    expect(spend.spent_nanos).toBe(20_000_000n);
    const read = await call('GET', `/organizations/${org}/members/${ada.userId}/budget`, adaToken);
    expect(read.body).toMatchObject({ limit_usd: 1, spent_usd: 0.02 });

    // The record names her as its member, with no key.
    const record = await gw.db
      .selectFrom('generations')
      .select(['user_id', 'api_key_id', 'member_user_id'])
      .where('id', '=', adaGeneration)
      .executeTakeFirstOrThrow();
    expect(record).toEqual({ user_id: org, api_key_id: null, member_user_id: ada.userId });
  });
});
