// A generation request with the account auth token and `X-Modelgate-Organization` spends that organization's credits
// and is recorded in its usage; without the header the same token spends its personal organization's.
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

const ANSWER = {
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 1,
  model: 'gpt-test-2026',
  choices: [{ index: 0, message: { role: 'assistant', content: 'hello' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 1000, completion_tokens: 1000, total_tokens: 2000 },
};

function chat(token: string, headers: Record<string, string>) {
  return gw.fetch('/api/v1/chat/completions', {
    method: 'POST',
    key: token,
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ model: 'openai/gpt-test', messages: [{ role: 'user', content: 'hi' }], stream: false }),
  });
}

describe('X-Modelgate-Organization on a generation', () => {
  it("spends the named organization's credits", async () => {
    const owner = await gw.createUser();
    const token = await gw.createToken(owner.userId);
    const org = (
      (await (
        await gw.fetch('/api/v1/admin/organizations', {
          method: 'POST',
          key: admin,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'Acme', owner_user_id: owner.userId }),
        })
      ).json()) as any
    ).id as string;
    await gw.grant(org, 1);

    // The personal organization has no credits: refused without the header.
    expect((await chat(token, {})).status).toBe(402);
    upstream.reply({ kind: 'json', body: ANSWER });
    const res = await chat(token, { 'x-modelgate-organization': org });
    expect(res.status).toBe(200);
    const id = ((await res.json()) as any).id as string;
    await gw.settled();
    const record = await gw.db.selectFrom('generations').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(record.user_id).toBe(org);
    const credits = async (headers: Record<string, string>) =>
      ((await (await gw.fetch('/api/v1/credits', { key: token, headers })).json()) as any).data;
    expect((await credits({ 'x-modelgate-organization': org })).total_usage).toBeGreaterThan(0);
    expect((await credits({})).total_usage).toBe(0);
  });
});
