// Graceful shutdown (what SIGTERM triggers): in-flight streams finish within the grace period or are cut after it,
// and either way each request leaves exactly one generation record and at most one debit; a restart loses nothing.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway } from '../helpers/gateway.js';
import { MockUpstream, openAiSse } from '../helpers/mock-upstream.js';
import { openTestDatabase, type OpenTestDatabase } from '../helpers/databases.js';
import { readSse } from '../helpers/sse-client.js';
import { getCreditAccount, listLedger } from '../../src/repositories/credits.js';

let upstream: MockUpstream;
let database: OpenTestDatabase;

const chunk = (content: string) => ({
  id: 'c',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'm',
  choices: [{ index: 0, delta: { content }, finish_reason: null }],
});
const usage = {
  id: 'c',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'm',
  choices: [],
  usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
};

beforeAll(async () => {
  upstream = await new MockUpstream().start();
  database = await openTestDatabase('pglite', { migrated: true });
});
afterAll(async () => {
  await upstream?.close();
  await database?.close();
});

function start(graceSeconds: string) {
  return startTestGateway({
    database,
    env: {
      MODELGATE_CATALOG: 'test/fixtures/catalog/test-catalog.json',
      OPENAI_API_KEY: 'k',
      OPENAI_BASE_URL: `${upstream.url}/v1`,
      MODELGATE_SHUTDOWN_GRACE_SECONDS: graceSeconds,
    },
  });
}

const request = (gw: Awaited<ReturnType<typeof start>>, key: string) =>
  gw.fetch('/api/v1/chat/completions', {
    method: 'POST',
    key,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'openai/gpt-test', messages: [{ role: 'user', content: 'hi' }], stream: true }),
  });

describe('shutdown', () => {
  it('lets a stream finish inside the grace period, then stops', async () => {
    const gw = await start('5');
    const user = await gw.createUser();
    await gw.grant(user.userId, 1);
    upstream.reply({
      kind: 'sse',
      chunks: [...openAiSse([chunk('a')], false), { pauseMs: 300 }, ...openAiSse([chunk('b'), usage])],
    });
    const res = await request(gw, user.key);
    const closing = gw.close();
    const sse = await readSse(res);
    await closing;
    expect(sse.done).toBe(true);
    expect(sse.chunks.map((c) => c.choices[0]?.delta?.content ?? '').join('')).toBe('ab');
    const rows = await database.db.selectFrom('generations').selectAll().where('user_id', '=', user.userId).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'success', prompt_tokens: 10, completion_tokens: 10 });
    expect((await listLedger(database.db, user.userId, 10)).filter((r) => r.kind === 'debit')).toHaveLength(1);
  });

  it('cuts a stream that outlives the grace period, and still records it once with its debit', async () => {
    const gw = await start('1');
    const user = await gw.createUser();
    await gw.grant(user.userId, 1);
    upstream.reply({
      kind: 'sse',
      chunks: [...openAiSse([chunk('x'.repeat(40))], false), { pauseMs: 10_000 }, ...openAiSse([usage])],
    });
    const res = await request(gw, user.key);
    const reading = res.text().catch(() => 'cut');
    await new Promise((r) => setTimeout(r, 100));
    await gw.close();
    await reading;
    const rows = await database.db.selectFrom('generations').selectAll().where('user_id', '=', user.userId).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0].status).toBe('aborted');
    expect(rows[0].completion_tokens).toBe(10);
    const debits = (await listLedger(database.db, user.userId, 10)).filter((r) => r.kind === 'debit');
    expect(debits).toHaveLength(1);
    expect(-debits[0].amount_nanos).toBe(rows[0].cost_nanos);
    expect((await getCreditAccount(database.db, user.userId)).reservedNanos).toBe(0n);
  });

  it('delivers an answer that ends after the stop began, then ends its keep-alive connection at once', async () => {
    const gw = await start('5');
    const user = await gw.createUser();
    await gw.grant(user.userId, 1);
    // The gateway reads the answer as a stream and writes it as one JSON body when it ends.
    upstream.reply({ kind: 'sse', chunks: [{ pauseMs: 300 }, ...openAiSse([chunk('ok'), usage])] });
    const before = upstream.requests.length;
    // A client that keeps its connection open for the next request, as SDKs do.
    const agent = new http.Agent({ keepAlive: true });
    const answer = new Promise<{ status?: number }>((resolve, reject) => {
      const req = http.request(`${gw.url}/api/v1/chat/completions`, {
        method: 'POST',
        agent,
        headers: { authorization: `Bearer ${user.key}`, 'content-type': 'application/json' },
      });
      req.on('response', (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode }));
      });
      req.on('error', reject);
      req.end(JSON.stringify({ model: 'openai/gpt-test', messages: [{ role: 'user', content: 'hi' }] }));
    });
    // The stop begins while the gateway waits on the upstream for this request's answer.
    while (upstream.requests.length === before) await new Promise((r) => setTimeout(r, 10));
    const closing = gw.close();
    const stopped = await Promise.race([
      closing.then(() => 'stopped'),
      // Far under the server's 65 s keep-alive timeout, far over a stop that waits for nothing.
      new Promise((r) => setTimeout(() => r('still waiting on the idle connection'), 20_000)),
    ]);
    agent.destroy();
    await closing;
    expect((await answer).status).toBe(200);
    expect(stopped).toBe('stopped');
  }, 90_000);

  it('loses no settled record across a restart in the middle of a run', async () => {
    const first = await start('5');
    const user = await first.createUser();
    await first.grant(user.userId, 1);
    upstream.always({ kind: 'sse', chunks: openAiSse([chunk('ok'), usage]) });
    const before = await Promise.all(Array.from({ length: 8 }, () => request(first, user.key).then(readSse)));
    await first.close();
    const second = await start('5');
    const after = await Promise.all(Array.from({ length: 8 }, () => request(second, user.key).then(readSse)));
    await second.close();
    upstream.reset();
    const ids = [...before, ...after].map((s) => s.chunks[0].id);
    const rows = await database.db
      .selectFrom('generations')
      .select(['id', 'cost_nanos'])
      .where('user_id', '=', user.userId)
      .execute();
    expect(rows.map((r) => r.id).sort()).toEqual([...ids].sort());
    const debits = (await listLedger(database.db, user.userId, 100)).filter((r) => r.kind === 'debit');
    expect(debits).toHaveLength(16);
    const debited = debits.reduce((sum, r) => sum - r.amount_nanos, 0n);
    expect(debited).toBe(rows.reduce((sum, r) => sum + r.cost_nanos, 0n));
    const account = await getCreditAccount(database.db, user.userId);
    expect(account.balanceNanos).toBe(1_000_000_000n - debited);
  });
});
