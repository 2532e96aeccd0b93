// Property: whatever sequence of failures the endpoints produce, a request is settled exactly once: one generation
// record, at most one ledger debit equal to the serving endpoint's price (nothing when nothing served), and the
// whole reservation released.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { MockUpstream, openAiSse, type Reply } from '../helpers/mock-upstream.js';
import { InMemoryCircuitBreaker } from '../../src/routing/circuit-breaker.js';
import { getCreditAccount } from '../../src/repositories/credits.js';

type Outcome = 'ok' | '500' | '429' | '400' | 'drop';
const ORDER = ['beta', 'gamma', 'alpha'] as const; // default order of alpha/chat: by price
const COST_NANOS = { beta: 4_000_000n, gamma: 6_000_000n, alpha: 8_000_000n }; // 1000 prompt + 500 completion tokens

let gw: TestGateway;
const up: Record<(typeof ORDER)[number], MockUpstream> = {} as never;
let user: { userId: string; key: string };

beforeAll(async () => {
  for (const name of ORDER) up[name] = await new MockUpstream().start();
  gw = await startTestGateway({
    env: {
      MODELGATE_CATALOG: 'test/fixtures/catalog/routing-catalog.json',
      ALPHA_API_KEY: 'sk-a',
      ALPHA_BASE_URL: `${up.alpha.url}/v1`,
      BETA_API_KEY: 'sk-b',
      BETA_BASE_URL: `${up.beta.url}/v1`,
      GAMMA_API_KEY: 'sk-g',
      GAMMA_BASE_URL: `${up.gamma.url}/v1`,
      MODELGATE_ROUTE_MAX_ATTEMPTS: '3',
    },
  });
  user = await gw.createUser();
  await gw.grant(user.userId, 10);
});
afterAll(async () => {
  await gw?.close();
  for (const u of Object.values(up)) await u?.close();
});

const usage = { prompt_tokens: 1000, completion_tokens: 500, total_tokens: 1500 };
function reply(outcome: Outcome, stream: boolean): Reply {
  switch (outcome) {
    case 'ok':
      return stream
        ? {
            kind: 'sse',
            chunks: openAiSse([
              { choices: [{ index: 0, delta: { content: 'hi' }, finish_reason: null }] },
              { choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
              { choices: [], usage },
            ]),
          }
        : {
            kind: 'json',
            body: {
              id: 'x',
              choices: [{ index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' }],
              usage,
            },
          };
    case '500':
      return { kind: 'json', status: 500, body: { error: { message: 'boom' } } };
    case '429':
      return { kind: 'json', status: 429, body: { error: { message: 'slow' } } };
    case '400':
      return { kind: 'json', status: 400, body: { error: { message: 'bad' } } };
    case 'drop':
      return { kind: 'sse-drop', chunks: [], close: 'destroy' };
  }
}

describe('settlement under routing', () => {
  it("exactly one settlement at the serving endpoint's price, whatever the attempts", async () => {
    const outcome = fc.constantFrom<Outcome>('ok', '500', '429', '400', 'drop');
    await fc.assert(
      fc.asyncProperty(fc.tuple(outcome, outcome, outcome), fc.boolean(), async (outcomes, stream) => {
        gw.parts.breaker = new InMemoryCircuitBreaker({ failureThreshold: 100, cooldownMs: 60_000 });
        ORDER.forEach((name, i) => {
          up[name].reset();
          up[name].reply(reply(outcomes[i], stream));
        });
        const before = (await getCreditAccount(gw.db, user.userId)).balanceNanos;
        const res = await gw.fetch('/api/v1/chat/completions', {
          method: 'POST',
          key: user.key,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ model: 'alpha/chat', messages: [{ role: 'user', content: 'hi' }], stream }),
        });
        await res.text();
        const id = res.headers.get('x-generation-id')!;

        // Expected: the first endpoint that answers ok serves; a 400 stops the attempts; retryable failures move on.
        let served: (typeof ORDER)[number] | undefined;
        let attempts = 0;
        for (let i = 0; i < ORDER.length; i++) {
          attempts++;
          if (outcomes[i] === 'ok') served = ORDER[i];
          if (outcomes[i] === 'ok' || outcomes[i] === '400') break;
        }
        // Nothing served: the last attempt's error is the answer.
        const last = outcomes[attempts - 1];
        expect(res.status).toBe(served ? 200 : last === '400' ? 400 : last === '429' ? 429 : 502);

        const records = await gw.db.selectFrom('generations').selectAll().where('id', '=', id).execute();
        expect(records).toHaveLength(1);
        expect(records[0].attempts).toHaveLength(attempts);
        const debits = await gw.db.selectFrom('credit_ledger').selectAll().where('generation_id', '=', id).execute();
        const cost = served ? COST_NANOS[served] : 0n;
        expect(records[0].cost_nanos).toBe(cost);
        expect(debits).toHaveLength(served ? 1 : 0);
        if (served) {
          expect(records[0].provider).toBe(served);
          expect(-BigInt(debits[0].amount_nanos)).toBe(cost);
        }
        expect(before - (await getCreditAccount(gw.db, user.userId)).balanceNanos).toBe(cost);
        expect(await gw.reservedNanos(user.userId)).toBe(0n);
      }),
      { numRuns: 25, seed: 2121 },
    );
  });
});
