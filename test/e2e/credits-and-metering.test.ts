// Pay-as-you-go end to end: 402, free models, exact debits, one generation record per request (also on disconnect).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { MockUpstream, openAiSse } from '../helpers/mock-upstream.js';
import { readSse } from '../helpers/sse-client.js';
import { getCreditAccount, listLedger } from '../../src/repositories/credits.js';

let gw: TestGateway;
let upstream: MockUpstream;

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
});
afterAll(async () => {
  await gw?.close();
  await upstream?.close();
});
beforeEach(() => upstream.reset());

const hello = [{ role: 'user', content: 'hi' }];
const body = (content: string, prompt = 1000, completion = 500) => ({
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 1,
  model: 'gpt-test-2026',
  choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
  usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
});
const chunk = (content: string) => ({
  id: 'c',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'm',
  choices: [{ index: 0, delta: { content }, finish_reason: null }],
});

function chat(key: string, payload: unknown, headers: Record<string, string> = {}) {
  return gw.fetch('/api/v1/chat/completions', {
    method: 'POST',
    key,
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(payload),
  });
}

async function waitFor<T>(fn: () => Promise<T | undefined>, timeoutMs = 5000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('credits', () => {
  it('answers 402 with available and required amounts when credits are short, without calling upstream', async () => {
    const user = await gw.createUser();
    const res = await chat(user.key, { model: 'openai/gpt-test', messages: hello, stream: false });
    expect(res.status).toBe(402);
    const err: any = await res.json();
    expect(err.error.code).toBe(402);
    expect(err.error.metadata).toMatchObject({ available: 0, currency: 'USD' });
    expect(err.error.metadata.required).toBeGreaterThan(0);
    expect(upstream.requests).toHaveLength(0);
  });

  it('the 402 says how many output tokens the balance affords, and that many is admitted where one more is not', async () => {
    const user = await gw.createUser();
    await gw.grant(user.userId, 0.01);
    // No max_tokens: the bound assumes the model's 16,000 output tokens (8 USD per 1M: 0.128 USD), over the balance.
    const res = await chat(user.key, { model: 'openai/gpt-test', messages: hello, stream: false });
    expect(res.status).toBe(402);
    const err: any = await res.json();
    const affordable: number = err.error.metadata.max_output_tokens_affordable;
    // 0.01 USD at 8 USD per 1M output tokens is 1,250 tokens, less what the prompt's bound takes.
    expect(affordable).toBeGreaterThan(1_200);
    expect(affordable).toBeLessThan(1_250);
    expect(err.error.message).toContain(
      `Without max_tokens the request may use up to 16000 tokens (what the model may write), but can only afford ${affordable}.`,
    );
    const over = await chat(user.key, {
      model: 'openai/gpt-test',
      messages: hello,
      stream: false,
      max_tokens: affordable + 1,
    });
    expect(over.status).toBe(402);
    expect(((await over.json()) as any).error.message).toContain(
      `You requested up to ${affordable + 1} tokens, but can only afford ${affordable}.`,
    );
    expect(upstream.requests).toHaveLength(0);
    upstream.reply({ kind: 'json', body: body('ok', 5, 1) });
    expect(
      (await chat(user.key, { model: 'openai/gpt-test', messages: hello, stream: false, max_tokens: affordable }))
        .status,
    ).toBe(200);
  });

  it('debits exactly the reported cost once, ties the ledger row to the generation, and releases the reservation', async () => {
    const user = await gw.createUser();
    await gw.grant(user.userId, 1);
    upstream.reply({ kind: 'json', body: body('ok', 1000, 500) });
    const res: any = await (
      await chat(user.key, { model: 'openai/gpt-test', messages: hello, stream: false, max_tokens: 1000 })
    ).json();
    // 1000 × $2/M + 500 × $8/M = $0.006
    expect(res.usage.cost).toBeCloseTo(0.006, 12);
    expect(res.usage.cost_details).toEqual({ access_mode: 'credits', charged: true });
    const account = await getCreditAccount(gw.db, user.userId);
    expect(account.balanceNanos).toBe(1_000_000_000n - 6_000_000n);
    expect(await gw.reservedNanos(user.userId)).toBe(0n);
    const ledger = await listLedger(gw.db, user.userId, 10);
    const debits = ledger.filter((row) => row.kind === 'debit');
    expect(debits).toHaveLength(1);
    expect(debits[0]).toMatchObject({ amount_nanos: -6_000_000n, generation_id: res.id });
    const credits: any = await (await gw.fetch('/api/v1/credits', { key: user.key })).json();
    expect(credits.data).toEqual({ total_credits: 1, total_usage: 0.006 });
  });

  it('shows a debit and its generation to a read right after the response (read-your-writes)', async () => {
    const user = await gw.createUser();
    await gw.grant(user.userId, 1);
    upstream.reply({ kind: 'json', body: body('ok', 1000, 500) });
    // Plain fetch: unlike gw.fetch it does not wait for the settlement queue before handing back the response.
    const headers = { authorization: `Bearer ${user.key}`, 'content-type': 'application/json' };
    const completion: any = await (
      await fetch(`${gw.url}/api/v1/chat/completions`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ model: 'openai/gpt-test', messages: hello, stream: false }),
      })
    ).json();
    const [credits, generation]: any[] = await Promise.all([
      fetch(`${gw.url}/api/v1/credits`, { headers }).then((r) => r.json()),
      fetch(`${gw.url}/api/v1/generation?id=${completion.id}`, { headers }).then((r) => r.json()),
    ]);
    expect(credits.data.total_usage).toBeCloseTo(0.006, 12);
    expect(generation.data).toMatchObject({ id: completion.id, total_cost: 0.006 });
  });

  it('releases the reservation and records an error (no debit) when the upstream fails', async () => {
    const user = await gw.createUser();
    await gw.grant(user.userId, 1);
    upstream.reply({ kind: 'json', status: 503, body: { error: { message: 'down' } } });
    const res = await chat(user.key, { model: 'openai/gpt-test', messages: hello, stream: false });
    expect(res.status).toBe(503);
    expect((await getCreditAccount(gw.db, user.userId)).balanceNanos).toBe(1_000_000_000n);
    expect(await gw.reservedNanos(user.userId)).toBe(0n);
    const rows = await gw.db.selectFrom('generations').selectAll().where('user_id', '=', user.userId).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'error', http_status: 503, cost_nanos: 0n });
  });
});

describe('free models', () => {
  it('serve a user without credits, report cost 0 and write no ledger row', async () => {
    const user = await gw.createUser();
    upstream.reply({ kind: 'json', body: body('free!', 10, 10) });
    const res = await chat(user.key, { model: 'openrouter/test/free-model:free', messages: hello, stream: false });
    expect(res.status).toBe(200);
    const json: any = await res.json();
    expect(json.usage.cost).toBe(0);
    expect(json.usage.cost_details).toEqual({ access_mode: 'free', charged: false });
    expect(upstream.last.body.model).toBe('test/free-model:free');
    expect(await listLedger(gw.db, user.userId, 10)).toHaveLength(0);
  });
});

describe('generation records', () => {
  it('stores one record with tracking headers, readable by its owner only', async () => {
    const owner = await gw.createUser();
    const other = await gw.createUser();
    await gw.grant(owner.userId, 1);
    upstream.reply({ kind: 'json', body: body('tracked', 20, 10) });
    const res: any = await (
      await chat(
        owner.key,
        { model: 'openai/gpt-test', messages: hello, stream: false },
        {
          'HTTP-Referer': 'https://example.com/app',
          'X-Title': 'My App',
          'X-Task-ID': 'task-42',
        },
      )
    ).json();
    const mine = await gw.fetch(`/api/v1/generation?id=${encodeURIComponent(res.id)}`, { key: owner.key });
    expect(mine.status).toBe(200);
    const record: any = await mine.json();
    expect(record.data).toMatchObject({
      id: res.id,
      model: 'openai/gpt-test',
      provider_name: 'openai',
      upstream_id: 'chatcmpl-1',
      streamed: false,
      cancelled: false,
      finish_reason: 'stop',
      status: 'success',
      tokens_prompt: 20,
      tokens_completion: 10,
      access_mode: 'credits',
      app_title: 'My App',
      http_referer: 'https://example.com/app',
      task_id: 'task-42',
    });
    expect(record.data.total_cost).toBeCloseTo(res.usage.cost, 12);
    const theirs = await gw.fetch(`/api/v1/generation?id=${encodeURIComponent(res.id)}`, { key: other.key });
    expect(theirs.status).toBe(404);
    const missing = await gw.fetch('/api/v1/generation', { key: owner.key });
    expect(missing.status).toBe(400);
  });

  it('records a client disconnect mid-stream once, as aborted, with the generated part charged once', async () => {
    const user = await gw.createUser();
    await gw.grant(user.userId, 1);
    upstream.reply({
      kind: 'sse',
      chunks: [...openAiSse([chunk('x'.repeat(400))], false), { pauseMs: 5000 }, ...openAiSse([chunk('late')])],
    });
    const controller = new AbortController();
    const res = await gw.fetch('/api/v1/chat/completions', {
      method: 'POST',
      key: user.key,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'openai/gpt-test', messages: hello, stream: true }),
      signal: controller.signal,
    });
    const reader = res.body!.getReader();
    let seen = '';
    while (!seen.includes('xxxx')) seen += new TextDecoder().decode((await reader.read()).value);
    controller.abort();
    const row = await waitFor(
      async () => (await gw.db.selectFrom('generations').selectAll().where('user_id', '=', user.userId).execute())[0],
    );
    expect(row).toMatchObject({ status: 'aborted', streamed: true });
    expect(row.completion_tokens).toBe(100);
    await waitFor(async () => (upstream.closedConnections > 0 ? true : undefined));
    const debits = (await listLedger(gw.db, user.userId, 10)).filter((r) => r.kind === 'debit');
    expect(debits).toHaveLength(1);
    expect(-debits[0].amount_nanos).toBe(row.cost_nanos);
    expect(row.cost_nanos).toBeGreaterThan(0n);
    expect(await gw.reservedNanos(user.userId)).toBe(0n);
  });

  it('reports the streamed usage cost in the final chunk and records the same cost', async () => {
    const user = await gw.createUser();
    await gw.grant(user.userId, 1);
    upstream.reply({
      kind: 'sse',
      chunks: openAiSse([
        chunk('a'),
        { ...chunk(''), choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
        {
          id: 'c',
          object: 'chat.completion.chunk',
          created: 1,
          model: 'm',
          choices: [],
          usage: { prompt_tokens: 100, completion_tokens: 50, total_tokens: 150 },
        },
      ]),
    });
    const sse = await readSse(await chat(user.key, { model: 'openai/gpt-test', messages: hello, stream: true }));
    const last = sse.chunks[sse.chunks.length - 1];
    expect(last.usage.cost).toBeCloseTo((100 * 2 + 50 * 8) / 1e6, 12);
    const row = await gw.db.selectFrom('generations').selectAll().where('id', '=', last.id).executeTakeFirstOrThrow();
    expect(row.cost_nanos).toBe(600_000n);
  });
});

describe('GET /key', () => {
  it('describes the calling key with usage and limits', async () => {
    const user = await gw.createUser();
    const res = await gw.fetch('/api/v1/key', { key: user.key });
    expect(res.status).toBe(200);
    const info: any = await res.json();
    expect(info.data).toMatchObject({
      key_id: user.keyId,
      // The user's personal organization (its id is the user's), and the user as the key's member.
      organization_id: user.userId,
      member_id: user.userId,
      usage: 0,
      limit: null,
      limit_remaining: null,
      is_free_tier: true,
      rate_limit: { requests_per_minute: 600, tokens_per_minute: 2_000_000 },
      free_requests_per_day: 200,
    });
  });
});
