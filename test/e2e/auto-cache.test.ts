// Automatic cache breakpoints over HTTP (issue 37 §3): a Responses or chat request to Claude that sets no
// cache_control reaches Anthropic with breakpoints on its stable prefix; the first turn's cache write is billed at the
// 5-minute write price (1.25× input), the next turn's read at the read price (0.1×); `X-Modelgate-Auto-Cache: off`
// sends the request unmarked, and a Messages client's request is never marked by the gateway.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { MockUpstream } from '../helpers/mock-upstream.js';

// claude-haiku-5-5 (USD per 1M): input 0.10, cache read 0.01, 5-minute write 0.125, output 0.50.
const MODEL = 'anthropic/claude-haiku-5-5';
const EPHEMERAL = { type: 'ephemeral' };

let gw: TestGateway;
let upstream: MockUpstream;
let user: { userId: string; key: string };

beforeAll(async () => {
  upstream = await new MockUpstream().start();
  gw = await startTestGateway({ env: { ANTHROPIC_API_KEY: 'sk-ant-upstream', ANTHROPIC_BASE_URL: upstream.url } });
  user = await gw.createUser();
  await gw.grant(user.userId, 5);
});
afterAll(async () => {
  await gw?.close();
  await upstream?.close();
});
beforeEach(() => upstream.reset());

function claudeReply(usage: Record<string, unknown>) {
  return {
    kind: 'json' as const,
    body: {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'claude-haiku-5-5',
      content: [{ type: 'text', text: 'ok' }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage,
    },
  };
}

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  gw.fetch(`/api/v1${path}`, {
    method: 'POST',
    key: user.key,
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

async function record(id: string) {
  await gw.settled();
  return gw.db.selectFrom('generations').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

const tools = [
  { type: 'function', name: 'exec_command', parameters: { type: 'object', properties: { cmd: { type: 'string' } } } },
  { type: 'function', name: 'view_image', parameters: { type: 'object', properties: { path: { type: 'string' } } } },
];

describe('Responses door → Claude', () => {
  it("marks the last tool, the instructions and the conversation so far; the write is billed at 1.25× input, the next turn's read at 0.1×", async () => {
    upstream.reply(
      claudeReply({
        input_tokens: 48,
        cache_creation_input_tokens: 2000,
        cache_read_input_tokens: 0,
        cache_creation: { ephemeral_5m_input_tokens: 2000, ephemeral_1h_input_tokens: 0 },
        output_tokens: 100,
      }),
    );
    const first = await post('/responses', {
      model: MODEL,
      instructions: 'You are Codex.',
      tools,
      input: [{ role: 'user', content: 'List the files.' }],
      max_output_tokens: 500,
    });
    expect(first.status).toBe(200);
    const sent = upstream.last.body;
    expect(sent.tools.map((tool: any) => tool.cache_control)).toEqual([undefined, EPHEMERAL]);
    expect(sent.system).toEqual([{ type: 'text', text: 'You are Codex.', cache_control: EPHEMERAL }]);
    expect(sent.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'List the files.', cache_control: EPHEMERAL }] },
    ]);
    const firstRow = await record((await first.json()).id);
    expect(firstRow).toMatchObject({ cache_write_tokens: 2000, cached_tokens: 0 });
    // 48×0.1 + 2000×0.125 + 100×0.5 = 304.8 USD per 1M tokens.
    expect(firstRow.cost_nanos).toBe(304_800n);

    upstream.reply(
      claudeReply({
        input_tokens: 60,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 2000,
        output_tokens: 100,
      }),
    );
    const second = await post('/responses', {
      model: MODEL,
      instructions: 'You are Codex.',
      tools,
      max_output_tokens: 500,
      input: [
        { role: 'user', content: 'List the files.' },
        { role: 'assistant', content: 'a.txt' },
        { role: 'user', content: 'Thanks' },
      ],
    });
    expect(second.status).toBe(200);
    expect(upstream.last.body.messages.at(-1)).toEqual({
      role: 'user',
      content: [{ type: 'text', text: 'Thanks', cache_control: EPHEMERAL }],
    });
    const secondRow = await record((await second.json()).id);
    expect(secondRow).toMatchObject({ cache_write_tokens: 0, cached_tokens: 2000 });
    // 60×0.1 + 2000×0.01 + 100×0.5 = 76 USD per 1M tokens.
    expect(secondRow.cost_nanos).toBe(76_000n);
  });

  it('X-Modelgate-Auto-Cache: off sends the request unmarked', async () => {
    upstream.reply(claudeReply({ input_tokens: 20, output_tokens: 1 }));
    const res = await post(
      '/responses',
      { model: MODEL, instructions: 'You are Codex.', tools, input: 'hi', max_output_tokens: 500 },
      { 'X-Modelgate-Auto-Cache': 'OFF' },
    );
    expect(res.status).toBe(200);
    expect(JSON.stringify(upstream.last.body)).not.toContain('cache_control');
  });
});

describe('chat door → Claude', () => {
  it('marks the prefix of a request that marks nothing, and leaves a request that marks a block as it came', async () => {
    upstream.reply(
      claudeReply({ input_tokens: 20, output_tokens: 1 }),
      claudeReply({ input_tokens: 20, output_tokens: 1 }),
    );
    const plain = await post('/chat/completions', {
      model: MODEL,
      stream: false,
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'hi' },
      ],
    });
    expect(plain.status).toBe(200);
    expect(upstream.last.body.system).toEqual([{ type: 'text', text: 'Be brief.', cache_control: EPHEMERAL }]);
    expect(upstream.last.body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'hi', cache_control: EPHEMERAL }] },
    ]);

    const marked = await post('/chat/completions', {
      model: MODEL,
      stream: false,
      messages: [
        {
          role: 'system',
          content: [{ type: 'text', text: 'A long contract…', cache_control: { type: 'ephemeral', ttl: '1h' } }],
        },
        { role: 'user', content: 'hi' },
      ],
    });
    expect(marked.status).toBe(200);
    expect(upstream.last.body.system).toEqual([
      { type: 'text', text: 'A long contract…', cache_control: { type: 'ephemeral', ttl: '1h' } },
    ]);
    expect(upstream.last.body.messages).toEqual([{ role: 'user', content: 'hi' }]);
  });
});

describe('Messages door → Claude', () => {
  it('is never marked by the gateway: a Messages client places its own breakpoints', async () => {
    upstream.reply(claudeReply({ input_tokens: 20, output_tokens: 1 }));
    const res = await post(
      '/messages',
      { model: MODEL, max_tokens: 100, system: 'Be brief.', messages: [{ role: 'user', content: 'hi' }] },
      { 'anthropic-version': '2023-06-01' },
    );
    expect(res.status).toBe(200);
    expect(JSON.stringify(upstream.last.body)).not.toContain('cache_control');
  });
});
