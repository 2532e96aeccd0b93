// 1-hour prompt-cache writes over HTTP: Anthropic splits cache writes by lifetime in `usage.cache_creation`; the
// Messages door to Anthropic is the native lane, so the client reads Anthropic's own usage (JSON and stream, the
// split included), and the charge, metered from those counts, prices 1-hour writes at 2× input, not at the 5-minute
// 1.25×.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { MockUpstream } from '../helpers/mock-upstream.js';
import { readSse } from '../helpers/sse-client.js';
import { loadJson } from '../helpers/stream-replay.js';
import { listLedger } from '../../src/repositories/credits.js';

// claude-haiku-5-5 (USD per 1M): input 0.10, cache read 0.01, 5-minute write 0.125, 1-hour write 0.20, output 0.50.
// cache-1h: 48 uncached, 2048 read, 2000 written for 5 minutes, 10000 for an hour, 120 out:
// 48×0.1 + 2048×0.01 + 2000×0.125 + 10000×0.2 + 120×0.5 = 2335.28 USD per 1M tokens → 2,335,280 nano-dollars
// (1,585,280 if the hour-long writes were priced as 5-minute ones).
const MODEL = 'anthropic/claude-haiku-5-5';
const COST_NANOS = 2_335_280n;
const USAGE = {
  input_tokens: 48,
  output_tokens: 120,
  cache_read_input_tokens: 2048,
  cache_creation_input_tokens: 12000,
  cache_creation: { ephemeral_5m_input_tokens: 2000, ephemeral_1h_input_tokens: 10000 },
};

let gw: TestGateway;
let upstream: MockUpstream;

beforeAll(async () => {
  upstream = await new MockUpstream().start();
  gw = await startTestGateway({ env: { ANTHROPIC_API_KEY: 'sk-ant-upstream', ANTHROPIC_BASE_URL: upstream.url } });
});
afterAll(async () => {
  await gw?.close();
  await upstream?.close();
});
beforeEach(() => upstream.reset());

function messages(key: string, stream: boolean) {
  return gw.fetch('/api/v1/messages', {
    method: 'POST',
    key,
    headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
    body: JSON.stringify({
      model: MODEL,
      max_tokens: 300,
      stream,
      system: [{ type: 'text', text: 'A long contract…', cache_control: { type: 'ephemeral', ttl: '1h' } }],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What does the termination clause say?', cache_control: { type: 'ephemeral' } },
          ],
        },
      ],
    }),
  });
}

async function charged(userId: string, generationId: string) {
  const row = await gw.db
    .selectFrom('generations')
    .selectAll()
    .where('id', '=', generationId)
    .executeTakeFirstOrThrow();
  const debits = (await listLedger(gw.db, userId, 10)).filter((r) => r.kind === 'debit');
  return { row, debits };
}

describe('1-hour cache writes on /messages', () => {
  it('JSON: reports usage.cache_creation with the split and charges 1-hour writes at 2× input', async () => {
    const user = await gw.createUser();
    await gw.grant(user.userId, 1);
    upstream.reply({ kind: 'json', body: loadJson('anthropic', 'cache-1h') });
    const res = await messages(user.key, false);
    expect(res.status).toBe(200);
    const message: any = await res.json();
    // Anthropic's usage object as it sent it; the model named by its gateway id, the id Anthropic's.
    expect(message.usage).toEqual({ ...USAGE, service_tier: 'standard' });
    expect(message).toMatchObject({ model: MODEL, id: 'msg_01Ttl1hCaChE5mAnD1hSpL1t' });
    const { row, debits } = await charged(user.userId, res.headers.get('x-generation-id')!);
    expect(row).toMatchObject({
      cache_write_tokens: 12000,
      cached_tokens: 2048,
      prompt_tokens: 48 + 2048 + 12000,
      completion_tokens: 120,
    });
    expect(row.cost_nanos).toBe(COST_NANOS);
    expect(debits.map((d) => -d.amount_nanos)).toEqual([COST_NANOS]);
  });

  it("stream: Anthropic's own events carry the split, and the charge is the same", async () => {
    const user = await gw.createUser();
    await gw.grant(user.userId, 1);
    upstream.reply({
      kind: 'sse',
      chunks: [readFileSync(new URL('../fixtures/anthropic/cache-1h.chunks.txt', import.meta.url), 'utf8')],
    });
    const res = await messages(user.key, true);
    expect(res.status).toBe(200);
    const { chunks } = await readSse(res);
    const start = chunks.find((c) => c.type === 'message_start');
    expect(start.message.usage.cache_creation).toEqual(USAGE.cache_creation);
    expect(start.message.model).toBe(MODEL);
    const delta = chunks.find((c) => c.type === 'message_delta');
    expect(delta.usage).toEqual({
      input_tokens: 48,
      cache_creation_input_tokens: 12000,
      cache_read_input_tokens: 2048,
      output_tokens: 120,
    });
    const { row, debits } = await charged(user.userId, res.headers.get('x-generation-id')!);
    expect(row).toMatchObject({
      cache_write_tokens: 12000,
      cached_tokens: 2048,
      prompt_tokens: 48 + 2048 + 12000,
      completion_tokens: 120,
      upstream_id: 'msg_01Ttl1hStReAm5mAnD1hSpL1',
    });
    expect(row.cost_nanos).toBe(COST_NANOS);
    expect(debits.map((d) => -d.amount_nanos)).toEqual([COST_NANOS]);
  });

  it('shows the 1-hour write price in GET /models', async () => {
    const user = await gw.createUser();
    const list: any = await (await gw.fetch('/api/v1/models', { key: user.key })).json();
    const haiku = list.data.find((m: { id: string }) => m.id === MODEL);
    expect(haiku.pricing).toMatchObject({ input_cache_write: '0.000000125', input_cache_write_1h: '0.0000002' });
  });
});
