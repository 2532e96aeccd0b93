// A client that leaves a stream early, over HTTP: a model that may reason invisibly (OpenAI reasoning models over
// chat completions, Gemini thinking) has its upstream read on after the client left, bounded by
// MODELGATE_DRAIN_ON_ABORT_S, and the provider's own usage (hidden reasoning included) is billed; past the bound (or
// at a graceful stop) the stated estimate is; every token visible (Anthropic thinking, non-reasoning models) or
// draining off: the upstream is aborted at once and what was streamed is billed. Each settles once.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { MockUpstream, openAiSse } from '../helpers/mock-upstream.js';
import { openTestDatabase, type OpenTestDatabase } from '../helpers/databases.js';
import { listLedger } from '../../src/repositories/credits.js';
import type { GenerationRow } from '../../src/db/tables/generations.js';
import type { Db } from '../../src/db/database.js';

// Shipped catalog. openai/gpt-5.4-nano (reasoning): $0.20 in, $1.25 out per 1M tokens; google/gemini-2.5-flash
// (thinking): $0.30 in, $2.50 out; anthropic/claude-haiku-5-5: $0.10 in, $0.50 out.
const VISIBLE = 'Answer: 42'; // 10 characters: 3 tokens by the gateway's estimate
let upstream: MockUpstream;
let drain: TestGateway; // MODELGATE_DRAIN_ON_ABORT_S=4: headroom over the mock's pauses on a loaded machine
let off: TestGateway; // MODELGATE_DRAIN_ON_ABORT_S=0
let closedBefore = 0;
/** Upstream connections the gateway closed (cut) since this test began. */
const cuts = () => upstream.closedConnections - closedBefore;

const env = (extra: Record<string, string>) => ({
  OPENAI_API_KEY: 'sk-up',
  OPENAI_BASE_URL: `${upstream.url}/v1`,
  ANTHROPIC_API_KEY: 'sk-ant-up',
  ANTHROPIC_BASE_URL: upstream.url,
  GEMINI_API_KEY: 'g-up',
  GOOGLE_BASE_URL: `${upstream.url}/v1beta`,
  MISTRAL_API_KEY: 'mi-up',
  MISTRAL_BASE_URL: `${upstream.url}/v1`,
  ...extra,
});

beforeAll(async () => {
  upstream = await new MockUpstream().start();
  drain = await startTestGateway({ env: env({ MODELGATE_DRAIN_ON_ABORT_S: '4' }) });
  off = await startTestGateway({ env: env({ MODELGATE_DRAIN_ON_ABORT_S: '0' }) });
});
afterAll(async () => {
  await drain?.close();
  await off?.close();
  await upstream?.close();
});
beforeEach(() => {
  upstream.reset();
  closedBefore = upstream.closedConnections;
});

const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
  id: 'chatcmpl-r',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'gpt-5.4-nano',
  choices: [{ index: 0, delta, finish_reason: finish }],
});
const usageChunk = (completion: number, reasoning: number) => ({
  id: 'chatcmpl-r',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'gpt-5.4-nano',
  choices: [],
  usage: {
    prompt_tokens: 50,
    completion_tokens: completion,
    total_tokens: 50 + completion,
    completion_tokens_details: { reasoning_tokens: reasoning },
  },
});
/** Visible content at once, then silence (the hidden reasoning's time), then the finish and the usage chunk. */
const reasoningStream = (pauseMs: number) => ({
  kind: 'sse' as const,
  chunks: [
    ...openAiSse([chunk({ role: 'assistant', content: VISIBLE })], false),
    { pauseMs },
    ...openAiSse([chunk({}, 'stop'), usageChunk(8000, 7990)]),
  ],
});

async function userWithCredits(gw: TestGateway) {
  const user = await gw.createUser();
  await gw.grant(user.userId, 5);
  return user;
}

/** Opens a stream, reads until `seen` arrived, then leaves (the socket closes); the generation id and when it left. */
async function streamAndLeave(
  gw: TestGateway,
  key: string,
  path: string,
  body: Record<string, unknown>,
  seen = VISIBLE,
) {
  const controller = new AbortController();
  const res = await gw.fetch(path, {
    method: 'POST',
    key,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ stream: true, ...body }),
    signal: controller.signal,
  });
  expect(res.status).toBe(200);
  const id = res.headers.get('x-generation-id')!;
  const reader = res.body!.getReader();
  let text = '';
  while (!text.includes(seen)) text += new TextDecoder().decode((await reader.read()).value);
  controller.abort();
  return { id, leftAt: Date.now() };
}

async function waitFor<T>(fn: () => Promise<T | undefined> | T | undefined, timeoutMs = 10_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 25));
  }
}

const recordOf = (db: Db, id: string) =>
  waitFor(() => db.selectFrom('generations').selectAll().where('id', '=', id).executeTakeFirst());

/** The record is the request's only one, and its one debit is its cost. */
async function expectSettledOnce(db: Db, userId: string, row: GenerationRow) {
  expect(await db.selectFrom('generations').select('id').where('user_id', '=', userId).execute()).toHaveLength(1);
  const debits = (await listLedger(db, userId, 10)).filter((r) => r.kind === 'debit');
  expect(debits.map((d) => -d.amount_nanos)).toEqual([row.cost_nanos]);
}

describe('a client leaving a stream whose model may reason invisibly', () => {
  it("reads the upstream on and bills the provider's usage, hidden reasoning included", async () => {
    const user = await userWithCredits(drain);
    upstream.reply(reasoningStream(500));
    const { id } = await streamAndLeave(drain, user.key, '/api/v1/chat/completions', {
      model: 'openai/gpt-5.4-nano',
      messages: [{ role: 'user', content: 'Think hard' }],
    });
    const row = await recordOf(drain.db, id);
    expect(row).toMatchObject({
      status: 'aborted',
      streamed: true,
      prompt_tokens: 50,
      completion_tokens: 8000,
      reasoning_tokens: 7990,
    });
    expect(row.cost_nanos).toBe(10_010_000n); // 50 × $0.20 + 8,000 × $1.25 per 1M
    await expectSettledOnce(drain.db, user.userId, row);
    expect(cuts()).toBe(0); // read to its end, not cut
    expect(await drain.reservedNanos(user.userId)).toBe(0n);
  });

  it('Gemini thinking: bills the thoughts the stream never showed', async () => {
    const user = await userWithCredits(drain);
    const gemini = (text: string, usage: Record<string, number>, finish?: string) =>
      `data: ${JSON.stringify({
        candidates: [
          { content: { parts: [{ text }], role: 'model' }, index: 0, ...(finish ? { finishReason: finish } : {}) },
        ],
        usageMetadata: { promptTokenCount: 20, ...usage },
        modelVersion: 'gemini-2.5-flash',
        responseId: 'resp-think',
      })}\n\n`;
    upstream.reply({
      kind: 'sse',
      chunks: [
        gemini(VISIBLE, { candidatesTokenCount: 3, thoughtsTokenCount: 500 }),
        { pauseMs: 500 },
        gemini('', { candidatesTokenCount: 5, thoughtsTokenCount: 6000 }, 'STOP'),
      ],
    });
    const { id } = await streamAndLeave(drain, user.key, '/api/v1/chat/completions', {
      model: 'google/gemini-2.5-flash',
      messages: [{ role: 'user', content: 'Think hard' }],
    });
    const row = await recordOf(drain.db, id);
    expect(row).toMatchObject({
      status: 'aborted',
      prompt_tokens: 20,
      completion_tokens: 6005,
      reasoning_tokens: 6000,
    });
    expect(row.cost_nanos).toBe(15_018_500n); // 20 × $0.30 + 6,005 × $2.50 per 1M
    await expectSettledOnce(drain.db, user.userId, row);
    expect(cuts()).toBe(0);
  });

  it('also when the client leaves before the first byte reached it', async () => {
    const user = await userWithCredits(drain);
    upstream.reply({ kind: 'sse', chunks: [{ pauseMs: 600 }, ...reasoningStream(100).chunks] });
    const controller = new AbortController();
    const answer = drain
      .fetch('/api/v1/chat/completions', {
        method: 'POST',
        key: user.key,
        headers: { 'content-type': 'application/json' },
        signal: controller.signal,
        body: JSON.stringify({
          stream: true,
          model: 'openai/gpt-5.4-nano',
          messages: [{ role: 'user', content: 'Think hard' }],
        }),
      })
      .catch((err: unknown) => err);
    await waitFor(() => (upstream.requests.length > 0 ? true : undefined));
    controller.abort();
    expect(await answer).toBeInstanceOf(Error);
    const row = await waitFor(() =>
      drain.db.selectFrom('generations').selectAll().where('user_id', '=', user.userId).executeTakeFirst(),
    );
    expect(row).toMatchObject({
      status: 'aborted',
      prompt_tokens: 50,
      completion_tokens: 8000,
      reasoning_tokens: 7990,
    });
    await expectSettledOnce(drain.db, user.userId, row);
    // Writing the response to a client that is gone is no error.
    expect(drain.logs.map((line) => JSON.parse(line)).filter((entry) => entry.level >= 50)).toEqual([]);
  });

  it('past the bound: aborts the upstream and bills the stated estimate (prompt estimate + max_tokens), not zero', async () => {
    const user = await userWithCredits(drain);
    upstream.reply(reasoningStream(8_000));
    const { id, leftAt } = await streamAndLeave(drain, user.key, '/api/v1/chat/completions', {
      model: 'openai/gpt-5.4-nano',
      max_tokens: 2000,
      messages: [{ role: 'user', content: 'Think hard' }],
    });
    const row = await recordOf(drain.db, id);
    expect(Date.now() - leftAt).toBeGreaterThanOrEqual(3_500); // it waited for the bound (4 s)
    // Prompt estimate: 3 + 4 per message + 10 characters / 4 = 10; output: max_tokens, of which all but the 3
    // visible tokens are counted as reasoning.
    expect(row).toMatchObject({
      status: 'aborted',
      error_code: 'client_disconnected',
      prompt_tokens: 10,
      completion_tokens: 2000,
      reasoning_tokens: 1997,
    });
    expect(row.error_message).toMatch(/MODELGATE_DRAIN_ON_ABORT_S/);
    expect(row.cost_nanos).toBe(2_502_000n); // 10 × $0.20 + 2,000 × $1.25 per 1M
    await expectSettledOnce(drain.db, user.userId, row);
    await waitFor(() => (cuts() > 0 ? true : undefined));
  });

  it("past the bound after the usage arrived (an upstream that never closes its stream): bills the provider's usage", async () => {
    const user = await userWithCredits(drain);
    upstream.reply({
      kind: 'sse',
      chunks: [
        ...openAiSse([chunk({ role: 'assistant', content: VISIBLE })], false),
        { pauseMs: 300 },
        ...openAiSse([chunk({}, 'stop'), usageChunk(8000, 7990)], false),
        { pauseMs: 8_000 },
        'data: [DONE]\n\n',
      ],
    });
    const { id } = await streamAndLeave(drain, user.key, '/api/v1/chat/completions', {
      model: 'openai/gpt-5.4-nano',
      messages: [{ role: 'user', content: 'Think hard' }],
    });
    const row = await recordOf(drain.db, id);
    expect(row).toMatchObject({
      status: 'aborted',
      prompt_tokens: 50,
      completion_tokens: 8000,
      reasoning_tokens: 7990,
    });
    expect(row.cost_nanos).toBe(10_010_000n);
    await expectSettledOnce(drain.db, user.userId, row);
    await waitFor(() => (cuts() > 0 ? true : undefined));
  });

  it('MODELGATE_DRAIN_ON_ABORT_S=0 keeps the old behaviour: the upstream is aborted at once, the visible tokens billed', async () => {
    const user = await userWithCredits(off);
    upstream.reply(reasoningStream(5_000));
    const { id, leftAt } = await streamAndLeave(off, user.key, '/api/v1/chat/completions', {
      model: 'openai/gpt-5.4-nano',
      messages: [{ role: 'user', content: 'Think hard' }],
    });
    await waitFor(() => (cuts() > 0 ? true : undefined), 2_000);
    const row = await recordOf(off.db, id);
    expect(Date.now() - leftAt).toBeLessThan(2_000);
    expect(row).toMatchObject({ status: 'aborted', prompt_tokens: 10, completion_tokens: 3, reasoning_tokens: 0 });
    await expectSettledOnce(off.db, user.userId, row);
  });
});

describe('a client leaving a stream whose every token is visible', () => {
  it('Anthropic (thinking streams as deltas): the upstream is aborted at once, with draining on', async () => {
    const user = await userWithCredits(drain);
    const event = (type: string, body: Record<string, unknown>) =>
      `event: ${type}\ndata: ${JSON.stringify({ type, ...body })}\n\n`;
    upstream.reply({
      kind: 'sse',
      chunks: [
        event('message_start', {
          message: {
            id: 'msg_leave',
            type: 'message',
            role: 'assistant',
            content: [],
            model: 'claude-haiku-5-5',
            usage: { input_tokens: 12, output_tokens: 1 },
          },
        }),
        event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
        event('content_block_delta', { index: 0, delta: { type: 'text_delta', text: VISIBLE } }),
        { pauseMs: 5_000 },
        event('content_block_stop', { index: 0 }),
        event('message_delta', {
          delta: { stop_reason: 'end_turn', stop_sequence: null },
          usage: { output_tokens: 900 },
        }),
        event('message_stop', {}),
      ],
    });
    const { id, leftAt } = await streamAndLeave(drain, user.key, '/api/v1/messages', {
      model: 'anthropic/claude-haiku-5-5',
      max_tokens: 1000,
      messages: [{ role: 'user', content: 'Think hard' }],
    });
    await waitFor(() => (cuts() > 0 ? true : undefined), 1_500);
    const row = await recordOf(drain.db, id);
    expect(Date.now() - leftAt).toBeLessThan(1_500);
    expect(row).toMatchObject({ status: 'aborted', completion_tokens: 3 });
    await expectSettledOnce(drain.db, user.userId, row);
  });

  it('a non-reasoning model: the upstream is aborted at once, with draining on', async () => {
    const user = await userWithCredits(drain);
    upstream.reply(reasoningStream(5_000));
    const { id, leftAt } = await streamAndLeave(drain, user.key, '/api/v1/chat/completions', {
      model: 'mistral/mistral-large-2512',
      messages: [{ role: 'user', content: 'Hi' }],
    });
    await waitFor(() => (cuts() > 0 ? true : undefined), 1_500);
    const row = await recordOf(drain.db, id);
    expect(Date.now() - leftAt).toBeLessThan(1_500);
    expect(row).toMatchObject({ status: 'aborted', completion_tokens: 3, reasoning_tokens: 0 });
    await expectSettledOnce(drain.db, user.userId, row);
  });
});

describe('a graceful stop while a stream drains', () => {
  let database: OpenTestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase('pglite', { migrated: true });
  });
  afterAll(async () => {
    await database?.close();
  });

  it('cuts the drain at the end of the grace period and settles it once, with the estimate', async () => {
    const gw = await startTestGateway({ database, env: env({ MODELGATE_SHUTDOWN_GRACE_SECONDS: '1' }) }); // drain bound: the default 60 s
    const user = await userWithCredits(gw);
    upstream.reply(reasoningStream(30_000));
    const { id } = await streamAndLeave(gw, user.key, '/api/v1/chat/completions', {
      model: 'openai/gpt-5.4-nano',
      max_tokens: 1000,
      messages: [{ role: 'user', content: 'Think hard' }],
    });
    await new Promise((r) => setTimeout(r, 100)); // the drain has begun
    expect(gw.parts.drains.size).toBe(1);
    const started = Date.now();
    await gw.close();
    expect(Date.now() - started).toBeLessThan(8_000); // the grace period (1 s), not the drain bound (60 s)
    const row = await database.db.selectFrom('generations').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'aborted', prompt_tokens: 10, completion_tokens: 1000, reasoning_tokens: 997 });
    await expectSettledOnce(database.db, user.userId, row);
  });
});
