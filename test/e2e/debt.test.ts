// Debt, not write-off (issue 35): a request whose real cost exceeds what the balance has left (the upstream reports far
// more usage than the admission bound assumed) is recorded at its full cost in every view — the response, the
// generation record, GET /credits, the admin ledger, the usage report, GET /key — to the nano-dollar; the balance goes
// negative and the next paid request is refused with 402, while free models keep working.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { MockUpstream, openAiSse } from '../helpers/mock-upstream.js';
import { readSse } from '../helpers/sse-client.js';
import { createAdminKey } from '../../src/services/admin-keys.js';
import { getCreditAccount } from '../../src/repositories/credits.js';

let gw: TestGateway;
let upstream: MockUpstream;
let admin: string;

beforeAll(async () => {
  upstream = await new MockUpstream().start();
  gw = await startTestGateway({
    env: {
      MODELGATE_CATALOG: 'test/fixtures/catalog/test-catalog.json',
      OPENAI_API_KEY: 'sk-up',
      OPENAI_BASE_URL: `${upstream.url}/v1`,
      OPENROUTER_API_KEY: 'sk-or',
      OPENROUTER_BASE_URL: `${upstream.url}/api/v1`,
    },
  });
  admin = (await createAdminKey(gw.db, { name: 'ops' })).secret;
});
afterAll(async () => {
  await gw?.close();
  await upstream?.close();
});
beforeEach(() => upstream.reset());

const hello = [{ role: 'user', content: 'hi' }];
// Far above the admission bound of a 100-token answer to "hi" (~0.0008 USD): 123,457 prompt tokens (1,001 of them
// cached) and 20,001 completion tokens at 2 / 1 / 8 USD per 1M: about 0.41 USD, against a balance of 0.01 USD.
const HUGE_USAGE = {
  prompt_tokens: 123_457,
  completion_tokens: 20_001,
  total_tokens: 143_458,
  prompt_tokens_details: { cached_tokens: 1_001 },
};
const usd = (value: number) => BigInt(Math.round(value * 1e9));

function chat(key: string, payload: Record<string, unknown>) {
  return gw.fetch('/api/v1/chat/completions', {
    method: 'POST',
    key,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ messages: hello, max_tokens: 100, ...payload }),
  });
}

async function get(path: string, key: string): Promise<any> {
  const res = await gw.fetch(path, { key });
  expect(res.status, path).toBe(200);
  return res.json();
}

/** Every view of the user's spending, in nano-dollars. */
async function views(user: { userId: string; key: string }, generationId: string) {
  const range = `from=${encodeURIComponent(new Date(Date.now() - 3_600_000).toISOString())}&to=${encodeURIComponent(new Date(Date.now() + 3_600_000).toISOString())}`;
  const [generation, credits, key, ledger, report] = await Promise.all([
    get(`/api/v1/generation?id=${encodeURIComponent(generationId)}`, user.key),
    get('/api/v1/credits', user.key),
    get('/api/v1/key', user.key),
    get(`/api/v1/admin/users/${user.userId}/ledger`, admin),
    get(`/api/v1/admin/usage?${range}&group_by=user`, admin),
  ]);
  const debits = ledger.data.filter((entry: any) => entry.kind === 'debit');
  expect(debits).toHaveLength(1);
  expect(debits[0].generation_id).toBe(generationId);
  const row = await gw.db
    .selectFrom('generations')
    .select('cost_nanos')
    .where('id', '=', generationId)
    .executeTakeFirstOrThrow();
  return {
    record: row.cost_nanos,
    generation: usd(generation.data.total_cost),
    credits: usd(credits.data.total_usage),
    key: usd(key.data.usage),
    ledger: -usd(debits[0].amount),
    report: usd(report.data.find((r: any) => r.group === user.userId).cost),
  };
}

describe('a cost above the balance', () => {
  for (const stream of [false, true]) {
    it(`is recorded in full everywhere, the balance goes negative, and the next paid request is 402 (${stream ? 'SSE' : 'JSON'})`, async () => {
      const user = await gw.createUser();
      await gw.grant(user.userId, 0.01);
      upstream.reply(
        stream
          ? {
              kind: 'sse',
              chunks: openAiSse([
                {
                  id: 'c',
                  object: 'chat.completion.chunk',
                  created: 1,
                  model: 'm',
                  choices: [{ index: 0, delta: { content: 'ok' }, finish_reason: 'stop' }],
                },
                { id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [], usage: HUGE_USAGE },
              ]),
            }
          : {
              kind: 'json',
              body: {
                id: 'chatcmpl-1',
                object: 'chat.completion',
                created: 1,
                model: 'gpt-test-2026',
                choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
                usage: HUGE_USAGE,
              },
            },
      );
      const res = await chat(user.key, { model: 'openai/gpt-test', stream });
      expect(res.status).toBe(200);
      const answer = stream ? (await readSse(res)).chunks.at(-1) : await res.json();
      const cost = usd(answer.usage.cost);
      expect(cost).toBeGreaterThan(usd(0.4));

      const seen = await views(user, answer.id);
      expect(seen).toEqual({ record: cost, generation: cost, credits: cost, key: cost, ledger: cost, report: cost });
      expect(await getCreditAccount(gw.db, user.userId)).toMatchObject({
        balanceNanos: usd(0.01) - cost,
        totalUsedNanos: cost,
      });
      expect(await gw.reservedNanos(user.userId)).toBe(0n);

      const refused = await chat(user.key, { model: 'openai/gpt-test', stream: false });
      expect(refused.status).toBe(402);
      const error: any = await refused.json();
      expect(error.error).toMatchObject({ code: 402, metadata: { available: 0, currency: 'USD' } });
      expect(upstream.requests).toHaveLength(1);

      // Free models are not paid for: they keep working for an account in debt.
      upstream.reply({
        kind: 'json',
        body: {
          id: 'free-1',
          object: 'chat.completion',
          created: 1,
          model: 'test/free-model:free',
          choices: [{ index: 0, message: { role: 'assistant', content: 'free' }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 5, completion_tokens: 5, total_tokens: 10 },
        },
      });
      expect((await chat(user.key, { model: 'openrouter/test/free-model:free', stream: false })).status).toBe(200);

      // Credits that pay the debt off and more make paid requests possible again.
      await gw.grant(user.userId, 1);
      upstream.reply({
        kind: 'json',
        body: {
          id: 'chatcmpl-2',
          object: 'chat.completion',
          created: 1,
          model: 'gpt-test-2026',
          choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
        },
      });
      expect((await chat(user.key, { model: 'openai/gpt-test', stream: false })).status).toBe(200);
    });
  }
});
