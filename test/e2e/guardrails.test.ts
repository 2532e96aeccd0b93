// Guardrails end to end: the organization's list over the API (owners and admins, audited, operator patterns only),
// the input stage on every door and both lanes (the native lane's bytes changed only where a string was redacted),
// `x-modelgate-guardrails` naming what fired and never what matched, a block refused with 403 in the door's envelope,
// recorded at cost 0 and not billed with nothing sent upstream, a flag that only reports, a key's own list combined
// with its organization's, and the output stage on a streamed answer whose email is split across chunks.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { MockUpstream } from '../helpers/mock-upstream.js';
import { loadJson } from '../helpers/stream-replay.js';

let gw: TestGateway;
let upstream: MockUpstream;
let owner: { userId: string; key: string; token: string };

const EMAIL = 'alice.smith@example.com';
const CARD = '4111 1111 1111 1111';

beforeAll(async () => {
  upstream = await new MockUpstream().start();
  gw = await startTestGateway({
    env: {
      OPENAI_API_KEY: 'sk-openai-upstream',
      OPENAI_BASE_URL: `${upstream.url}/v1`,
      ANTHROPIC_API_KEY: 'sk-ant-upstream',
      ANTHROPIC_BASE_URL: upstream.url,
      GEMINI_API_KEY: 'AIzaUpstream',
      GOOGLE_BASE_URL: `${upstream.url}/v1beta`,
      MODELGATE_GUARDRAIL_PATTERNS: JSON.stringify({ ticket_id: 'TICKET-\\d+' }),
    },
  });
  const created = await gw.createUser();
  owner = { ...created, token: await gw.createToken(created.userId) };
  await gw.grant(owner.userId, 10);
});
afterAll(async () => {
  await gw?.close();
  await upstream?.close();
});
beforeEach(() => upstream.reset());

async function call(method: string, path: string, key: string, options: { body?: unknown; raw?: string } = {}) {
  const headers: Record<string, string> = { 'anthropic-version': '2023-06-01' };
  const text = options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  if (text !== undefined) headers['content-type'] = 'application/json';
  const res = await gw.fetch(`/api/v1${path}`, { method, key, headers, body: text });
  const raw = await res.text();
  let body: any;
  try {
    body = JSON.parse(raw);
  } catch {
    body = raw;
  }
  return { status: res.status, body, raw, guardrails: res.headers.get('x-modelgate-guardrails') };
}

async function setGuardrails(data: unknown[]) {
  const res = await call('PUT', '/guardrails', owner.token, { body: { data } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res;
}

const redactEmails = { name: 'no-emails', stage: 'input', action: 'redact', detector: 'email' };
const blockCards = { name: 'no-cards', stage: 'input', action: 'block', detector: 'credit_card' };

/** What the upstream was sent: the email gone, its placeholder there. */
function expectRedacted(rawBody: string) {
  expect(rawBody).not.toContain(EMAIL);
  expect(rawBody).toContain('[EMAIL]');
}

describe('the organization guardrails API', () => {
  it('owners set the list, members read it, an unknown operator pattern is refused, each change is audited', async () => {
    expect((await call('GET', '/guardrails', owner.key)).body).toEqual({ data: [] });
    const put = await setGuardrails([redactEmails, { ...blockCards }]);
    expect(put.body.data.map((g: { name: string }) => g.name)).toEqual(['no-emails', 'no-cards']);
    expect((await call('GET', '/guardrails', owner.key)).body.data).toHaveLength(2);

    const unknown = await call('PUT', '/guardrails', owner.token, {
      body: { data: [{ name: 'tickets', stage: 'input', action: 'redact', detector: 'regex', pattern: 'nope' }] },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.metadata.reason).toBe('unknown_pattern');
    const twice = await call('PUT', '/guardrails', owner.token, { body: { data: [redactEmails, redactEmails] } });
    expect(twice.status).toBe(400);
    expect((await call('PUT', '/guardrails', owner.key, { body: { data: [] } })).status).toBe(403);

    const log = await call('GET', `/organizations/${owner.userId}/audit-log`, owner.token);
    expect(log.body.data.map((e: { action: string }) => e.action)).toContain('guardrails.changed');
  });
});

describe('the input stage on every door', () => {
  beforeAll(async () => {
    await setGuardrails([redactEmails, blockCards]);
  });

  it('chat completions, native lane: only the changed string is written anew, the header names the guardrail', async () => {
    upstream.reply({ kind: 'json', body: loadJson('openai', 'text') });
    // The client's own escapes (\u00e9) stay as they came in the strings no guardrail changed.
    const raw = `{"model":"openai/gpt-5.5","stream":false,"messages":[{"role":"system","content":"caf\\u00e9"},{"role":"user","content":"Mail ${EMAIL} please"}]}`;
    const res = await call('POST', '/chat/completions', owner.key, { raw });
    expect(res.status, res.raw).toBe(200);
    expect(upstream.last.path).toBe('/v1/chat/completions');
    expectRedacted(upstream.last.rawBody);
    expect(upstream.last.rawBody).toContain('"content":"Mail [EMAIL] please"');
    expect(upstream.last.rawBody).toContain('caf\\u00e9');
    expect(res.guardrails).toBe('no-emails');
    expect(res.raw).not.toContain(EMAIL);
  });

  it('chat completions, translated lane (Anthropic)', async () => {
    upstream.reply({ kind: 'json', body: loadJson('anthropic', 'text') });
    const res = await call('POST', '/chat/completions', owner.key, {
      body: {
        model: 'anthropic/claude-sonnet-5-5',
        stream: false,
        messages: [{ role: 'user', content: `To ${EMAIL}` }],
      },
    });
    expect(res.status, res.raw).toBe(200);
    expect(upstream.last.path).toBe('/v1/messages');
    expectRedacted(upstream.last.rawBody);
    expect(res.guardrails).toBe('no-emails');
  });

  it('Messages, native lane (system and a tool result) and translated lane (OpenAI)', async () => {
    upstream.reply({ kind: 'json', body: loadJson('anthropic', 'text') });
    const messages = {
      model: 'anthropic/claude-sonnet-5-5',
      max_tokens: 100,
      system: `You answer ${EMAIL}`,
      messages: [
        { role: 'user', content: [{ type: 'text', text: `Hi from ${EMAIL}` }] },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'lookup', input: { q: 'me' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: `owner: ${EMAIL}` }] },
      ],
    };
    const native = await call('POST', '/messages', owner.key, { body: messages });
    expect(native.status, native.raw).toBe(200);
    expect(upstream.last.path).toBe('/v1/messages');
    expectRedacted(upstream.last.rawBody);
    expect(upstream.last.body.messages[2].content[0].tool_use_id).toBe('toolu_1');
    expect(native.guardrails).toBe('no-emails');

    upstream.reply({ kind: 'json', body: loadJson('openai', 'text') });
    const translated = await call('POST', '/messages', owner.key, { body: { ...messages, model: 'openai/gpt-5.5' } });
    expect(translated.status, translated.raw).toBe(200);
    expect(upstream.last.path).not.toBe('/v1/messages');
    expectRedacted(upstream.last.rawBody);
  });

  it('Responses, native lane: `input` and `instructions` both; translated lane (Anthropic)', async () => {
    upstream.reply({ kind: 'json', body: loadJson('openai', 'native-responses-reasoning') });
    const body = { model: 'openai/gpt-5.5', instructions: `Reply to ${EMAIL}`, input: `I am ${EMAIL}` };
    const native = await call('POST', '/responses', owner.key, { body });
    expect(native.status, native.raw).toBe(200);
    expect(upstream.last.path).toBe('/v1/responses');
    expect(upstream.last.body.instructions).toBe('Reply to [EMAIL]');
    expect(upstream.last.body.input).toBe('I am [EMAIL]');
    expect(native.guardrails).toBe('no-emails');

    upstream.reply({ kind: 'json', body: loadJson('anthropic', 'text') });
    const translated = await call('POST', '/responses', owner.key, {
      body: { ...body, model: 'anthropic/claude-sonnet-5-5', input: [{ role: 'user', content: `I am ${EMAIL}` }] },
    });
    expect(translated.status, translated.raw).toBe(200);
    expect(upstream.last.path).toBe('/v1/messages');
    expectRedacted(upstream.last.rawBody);
    expect(upstream.last.rawBody).toContain('Reply to [EMAIL]');
  });

  it('Gemini, native lane (Google) and translated lane (Anthropic)', async () => {
    const body = {
      systemInstruction: { parts: [{ text: `Sign as ${EMAIL}` }] },
      contents: [{ role: 'user', parts: [{ text: `Hi, ${EMAIL} here` }] }],
    };
    upstream.reply({ kind: 'json', body: loadJson('gemini', 'text') });
    const native = await call('POST', '/gemini/v1beta/models/gemini-3.5-flash:generateContent', owner.key, { body });
    expect(native.status, native.raw).toBe(200);
    expect(upstream.last.path).toBe('/v1beta/models/gemini-3.5-flash:generateContent');
    expectRedacted(upstream.last.rawBody);
    expect(upstream.last.body.contents[0].parts[0].text).toBe('Hi, [EMAIL] here');
    expect(native.guardrails).toBe('no-emails');

    upstream.reply({ kind: 'json', body: loadJson('anthropic', 'text') });
    const translated = await call(
      'POST',
      '/gemini/v1beta/models/anthropic/claude-sonnet-5-5:generateContent',
      owner.key,
      {
        body,
      },
    );
    expect(translated.status, translated.raw).toBe(200);
    expect(upstream.last.path).toBe('/v1/messages');
    expectRedacted(upstream.last.rawBody);
  });
});

describe('a preset', () => {
  it("the input stage reads the request as served: a preset's system prompt is redacted too", async () => {
    await setGuardrails([redactEmails]);
    const saved = await call('POST', '/presets', owner.token, {
      body: { slug: 'support', preset: { model: 'anthropic/claude-sonnet-5-5', system: `Sign as ${EMAIL}` } },
    });
    expect(saved.status, saved.raw).toBe(201);
    upstream.reply({ kind: 'json', body: loadJson('anthropic', 'text') });
    const res = await call('POST', '/messages', owner.key, {
      body: { model: '@preset/support', max_tokens: 20, messages: [{ role: 'user', content: 'Hi' }] },
    });
    expect(res.status, res.raw).toBe(200);
    expect(upstream.last.path).toBe('/v1/messages');
    expectRedacted(upstream.last.rawBody);
    expect(res.guardrails).toBe('no-emails');
  });
});

describe('a blocked request', () => {
  beforeAll(async () => {
    await setGuardrails([redactEmails, blockCards]);
  });

  it('is 403 in the door envelope naming the guardrail, recorded at cost 0, not billed, nothing sent upstream', async () => {
    const before = await gw.db
      .selectFrom('credit_accounts')
      .select(['balance_nanos', 'reserved_nanos'])
      .where('user_id', '=', owner.userId)
      .executeTakeFirstOrThrow();
    const chat = await call('POST', '/chat/completions', owner.key, {
      body: { model: 'openai/gpt-5.5', stream: true, messages: [{ role: 'user', content: `Card ${CARD}, ${EMAIL}` }] },
    });
    expect(chat.status).toBe(403);
    expect(chat.body.error.metadata).toMatchObject({ reason: 'guardrail_blocked', guardrail: 'no-cards' });
    expect(chat.body.error.message).toContain('no-cards');
    expect(chat.raw).not.toContain('4111');
    expect(chat.guardrails).toBe('no-emails, no-cards');

    const messages = await call('POST', '/messages', owner.key, {
      body: { model: 'anthropic/claude-sonnet-5-5', max_tokens: 10, messages: [{ role: 'user', content: CARD }] },
    });
    expect(messages.status).toBe(403);
    expect(messages.body.type).toBe('error');
    expect(messages.body.error.type).toBe('permission_error');
    expect(upstream.requests).toHaveLength(0);

    await gw.settled();
    const rows = await gw.db
      .selectFrom('generations')
      .selectAll()
      .where('user_id', '=', owner.userId)
      .where('error_code', '=', 'guardrail_blocked')
      .execute();
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row.status).toBe('error');
      expect(row.http_status).toBe(403);
      expect(row.cost_nanos).toBe(0n);
      expect(row.guardrails).toContain('no-cards');
    }
    const ledger = await gw.db
      .selectFrom('credit_ledger')
      .selectAll()
      .where(
        'generation_id',
        'in',
        rows.map((row) => row.id),
      )
      .execute();
    expect(ledger).toHaveLength(0);
    const after = await gw.db
      .selectFrom('credit_accounts')
      .select(['balance_nanos', 'reserved_nanos'])
      .where('user_id', '=', owner.userId)
      .executeTakeFirstOrThrow();
    expect(after.balance_nanos).toBe(before.balance_nanos);
    const recorded = await call('GET', `/generation?id=${rows[0]!.id}`, owner.key);
    expect(recorded.status, recorded.raw).toBe(200);
    expect(recorded.body.data).toMatchObject({ total_cost: 0, guardrails: expect.arrayContaining(['no-cards']) });
  });
});

describe('flag, and a key list combined with the organization list', () => {
  it('a flag only reports; a key adds its own guardrails to its organization ones', async () => {
    await setGuardrails([redactEmails, { name: 'phones', stage: 'input', action: 'flag', detector: 'phone' }]);
    const made = await call('POST', '/api-keys', owner.token, {
      body: {
        name: 'guarded',
        guardrails: [
          { name: 'keys', stage: 'input', action: 'redact', detector: 'secret' },
          { name: 'tickets', stage: 'input', action: 'redact', detector: 'regex', pattern: 'ticket_id' },
        ],
      },
    });
    expect(made.status, made.raw).toBe(201);
    expect(made.body.guardrails.map((g: { name: string }) => g.name)).toEqual(['keys', 'tickets']);
    const secret = 'sk-proj-abcdefghijklmnopqrstuvwxyz012345';
    const text = `Call +44 20 7946 0958 about TICKET-42, key ${secret}, mail ${EMAIL}`;
    const ask = { model: 'openai/gpt-5.5', stream: false, messages: [{ role: 'user', content: text }] };

    upstream.reply({ kind: 'json', body: loadJson('openai', 'text') });
    const guarded = await call('POST', '/chat/completions', made.body.key, { body: ask });
    expect(guarded.status, guarded.raw).toBe(200);
    expect(upstream.last.body.messages[0].content).toBe(
      'Call +44 20 7946 0958 about [TICKET_ID], key [SECRET], mail [EMAIL]',
    );
    expect(guarded.guardrails).toBe('no-emails, phones, keys, tickets');

    upstream.reply({ kind: 'json', body: loadJson('openai', 'text') });
    const plain = await call('POST', '/chat/completions', owner.key, { body: ask });
    expect(plain.status).toBe(200);
    expect(upstream.last.body.messages[0].content).toBe(
      `Call +44 20 7946 0958 about TICKET-42, key ${secret}, mail [EMAIL]`,
    );
    expect(plain.guardrails).toBe('no-emails, phones');
    await gw.settled();
    const row = await gw.db
      .selectFrom('generations')
      .select('guardrails')
      .where('api_key_id', '=', made.body.key_id)
      .executeTakeFirstOrThrow();
    expect(row.guardrails).toEqual(['no-emails', 'phones', 'keys', 'tickets']);
  });
});

/** An OpenAI chat stream whose content comes in these pieces. */
function chatChunks(pieces: string[]): string[] {
  const chunk = (delta: object, finish: string | null = null, usage: object | null = null) =>
    `data: ${JSON.stringify({
      id: 'chatcmpl-1',
      object: 'chat.completion.chunk',
      created: 1,
      model: 'gpt-5.5',
      choices: usage ? [] : [{ index: 0, delta, finish_reason: finish }],
      usage,
    })}\n\n`;
  return [
    chunk({ role: 'assistant', content: '' }),
    ...pieces.map((content) => chunk({ content })),
    chunk({}, 'stop'),
    chunk({}, null, { prompt_tokens: 10, completion_tokens: 20, total_tokens: 30 }),
    'data: [DONE]\n\n',
  ];
}

/** The text of a chat completions stream. */
function streamedText(sse: string): string {
  return sse
    .split('\n')
    .filter((line) => line.startsWith('data: {'))
    .map((line) => JSON.parse(line.slice(6)).choices?.[0]?.delta?.content ?? '')
    .join('');
}

describe('the output stage', () => {
  it('redacts an email split across chunks of a streamed answer', async () => {
    await setGuardrails([{ name: 'answer-emails', stage: 'output', action: 'redact', detector: 'email' }]);
    upstream.reply({ kind: 'sse', chunks: chatChunks(['Write to alice.sm', 'ith@exa', 'mple.com', ' today.']) });
    const res = await call('POST', '/chat/completions', owner.key, {
      body: { model: 'openai/gpt-5.5', stream: true, messages: [{ role: 'user', content: 'Who?' }] },
    });
    expect(res.status, res.raw).toBe(200);
    expect(streamedText(res.raw)).toBe('Write to [EMAIL] today.');
    expect(res.raw).not.toContain('alice');
    expect(res.raw).not.toContain('mple.com');
    await gw.settled();
    const row = await gw.db
      .selectFrom('generations')
      .select(['guardrails', 'status'])
      .where('user_id', '=', owner.userId)
      .orderBy('created_at', 'desc')
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ guardrails: ['answer-emails'], status: 'success' });
  });

  it('Messages door: the text_delta events carry the redaction, the split email never leaves', async () => {
    const event = (type: string, data: object) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
    const delta = (text: string) => event('content_block_delta', { index: 0, delta: { type: 'text_delta', text } });
    upstream.reply({
      kind: 'sse',
      chunks: [
        event('message_start', {
          message: {
            id: 'msg_1',
            type: 'message',
            role: 'assistant',
            content: [],
            model: 'claude-sonnet-5-5',
            stop_reason: null,
            stop_sequence: null,
            usage: { input_tokens: 12, output_tokens: 1 },
          },
        }),
        event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
        delta('Mail bob.j'),
        delta('ones@examp'),
        delta('le.org now'),
        event('content_block_stop', { index: 0 }),
        event('message_delta', {
          delta: { stop_reason: 'end_turn', stop_sequence: null },
          usage: { output_tokens: 9 },
        }),
        event('message_stop', {}),
      ],
    });
    const res = await call('POST', '/messages', owner.key, {
      body: {
        model: 'anthropic/claude-sonnet-5-5',
        max_tokens: 50,
        stream: true,
        messages: [{ role: 'user', content: 'Who?' }],
      },
    });
    expect(res.status, res.raw).toBe(200);
    const text = res.raw
      .split('\n')
      .filter((line) => line.startsWith('data: {'))
      .map((line) => JSON.parse(line.slice(6)))
      .filter((data) => data.type === 'content_block_delta')
      .map((data) => data.delta.text)
      .join('');
    expect(text).toBe('Mail [EMAIL] now');
    expect(res.raw).not.toContain('bob.j');
    expect(res.raw).toContain('message_stop');
  });

  it('a blocking output guardrail ends the stream with the door error event, naming it', async () => {
    await setGuardrails([{ name: 'answer-cards', stage: 'output', action: 'block', detector: 'credit_card' }]);
    upstream.reply({ kind: 'sse', chunks: chatChunks(['Your card is 4111 1111 ', '1111 1111, done.']) });
    const res = await call('POST', '/chat/completions', owner.key, {
      body: { model: 'openai/gpt-5.5', stream: true, messages: [{ role: 'user', content: 'Card?' }] },
    });
    expect(res.status).toBe(200);
    expect(res.raw).not.toContain('4111');
    expect(res.raw).toContain('answer-cards');
    expect(res.raw).toContain('"error"');
  });

  it('redacts a whole answer', async () => {
    await setGuardrails([{ name: 'answer-emails', stage: 'output', action: 'redact', detector: 'email' }]);
    const answer = structuredClone(loadJson('anthropic', 'text')) as { content: { text: string }[] };
    answer.content[0]!.text = `Reach me at ${EMAIL}.`;
    upstream.reply({ kind: 'json', body: answer });
    const res = await call('POST', '/messages', owner.key, {
      body: { model: 'anthropic/claude-sonnet-5-5', max_tokens: 10, messages: [{ role: 'user', content: 'Who?' }] },
    });
    expect(res.status, res.raw).toBe(200);
    expect(res.body.content[0].text).toBe('Reach me at [EMAIL].');
    expect(res.guardrails).toBe('answer-emails');
  });
});
