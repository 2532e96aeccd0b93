// The Messages door to Anthropic is the native lane (docs/lanes.md): a Claude-Code-shaped request (research-clients.md
// §3.2b, §3.2c) reaches Anthropic's /v1/messages as the client wrote it — model spliced, gateway-only fields gone,
// the client's anthropic-version and anthropic-beta passed, the operator's key as x-api-key — with adaptive thinking,
// context_management, output_config (format included), tools with cache_control ttl 1h, strict, defer_loading, a
// server tool, an image inside a tool_result, a role "system" turn, JSON-Schema 2020-12 keywords and a block type the
// gateway does not model. Anthropic's events come back as sent (only message_start's model is the gateway's id); the
// record and ledger carry Anthropic's usage with cache reads and the 5m/1h split of cache writes priced apart.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { MockUpstream } from '../helpers/mock-upstream.js';
import { sseEvents, type NamedEvent } from '../helpers/native-sse.js';
import { listLedger } from '../../src/repositories/credits.js';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/anthropic/${name}`, import.meta.url), 'utf8');
const EVENTS = fixture('native-messages-claude-code.chunks.txt');
const MODEL = 'anthropic/claude-sonnet-5-5';
const OPERATOR_KEY = 'sk-ant-api03-operator-secret-abcdefghij';
// claude-sonnet-5-5 (USD per 1M): input 2, cache read 0.1, 5-minute write 2.5, 1-hour write 4, output 10.
// 25 in, 20,000 read, 1,000 written for 5 minutes, 5,000 for an hour, 350 out:
// 25×2 + 20,000×0.1 + 1,000×2.5 + 5,000×4 + 350×10 = 28,050 USD per 1M → 28,050,000 nanos.
const COST_NANOS = 28_050_000n;
const BETAS =
  'claude-code-20250219,context-1m-2025-08-07,interleaved-thinking-2025-05-14,context-management-2025-06-27,prompt-caching-scope-2026-01-05,mid-conversation-system-2026-04-07,effort-2025-11-24';
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

let gw: TestGateway;
let upstream: MockUpstream;
let user: Awaited<ReturnType<TestGateway['createUser']>>;

beforeAll(async () => {
  upstream = await new MockUpstream().start();
  gw = await startTestGateway({ env: { ANTHROPIC_API_KEY: OPERATOR_KEY, ANTHROPIC_BASE_URL: upstream.url } });
  user = await gw.createUser();
  await gw.grant(user.userId, 50);
});
afterAll(async () => {
  await gw?.close();
  await upstream?.close();
});
beforeEach(() => upstream.reset());

/** Claude Code 2.1.179's tool turn (research-clients.md §3.2b/c), with the features issue 37 lists, and a gateway field. */
function claudeCodeRequest(stream: boolean): Record<string, unknown> {
  return {
    model: MODEL,
    messages: [
      {
        role: 'user',
        content: [
          {
            type: 'text',
            text: "<system-reminder>\nAs you answer the user's questions, you can use the following context.",
          },
          {
            type: 'text',
            text: 'Read the README and the screenshot',
            cache_control: { type: 'ephemeral', ttl: '1h', scope: 'global' },
          },
        ],
      },
      { role: 'system', content: 'Available agent types for the Agent tool:\n- claude: Catch-all agent.' },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'Let me look.', signature: 'EqQBsig-mock' },
          { type: 'text', text: 'Running tool.' },
          {
            type: 'tool_use',
            id: 'toolu_mock_1',
            name: 'Read',
            input: { file_path: '/work/shot.png' },
            cache_control: { type: 'ephemeral' },
          },
        ],
      },
      {
        role: 'user',
        content: [
          {
            tool_use_id: 'toolu_mock_1',
            type: 'tool_result',
            content: [
              { type: 'text', text: 'Screenshot:' },
              { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
            ],
            cache_control: { type: 'ephemeral', ttl: '1h' },
          },
          // A block type the gateway does not model (Anthropic adds them): it passes to Anthropic as it is.
          {
            type: 'search_result',
            source: 'https://example.com/readme',
            title: 'README',
            content: [{ type: 'text', text: 'Hello' }],
            citations: { enabled: true },
          },
        ],
      },
    ],
    system: [
      { type: 'text', text: 'x-anthropic-billing-header: cc_version=2.1.179.634; cc_entrypoint=sdk-cli; cch=d09fe;' },
      {
        type: 'text',
        text: "You are a Claude agent, built on Anthropic's Claude Agent SDK.",
        cache_control: { type: 'ephemeral', ttl: '1h' },
      },
    ],
    tools: [
      {
        name: 'Read',
        description: 'Reads a file from the local filesystem.',
        strict: true,
        cache_control: { type: 'ephemeral', ttl: '1h' },
        input_schema: {
          $schema: 'https://json-schema.org/draft/2020-12/schema',
          type: 'object',
          properties: {
            file_path: { description: 'The absolute path to the file to read', type: 'string' },
            limit: { type: 'integer', exclusiveMinimum: 0, maximum: 9007199254740991 },
          },
          required: ['file_path'],
          additionalProperties: false,
        },
      },
      {
        name: 'NotebookEdit',
        description: 'Edits a notebook.',
        defer_loading: true,
        input_schema: { type: 'object', properties: {} },
      },
      { type: 'web_search_20250305', name: 'web_search', max_uses: 8 },
    ],
    metadata: {
      user_id: '{"device_id":"01fed135a082","account_uuid":"","session_id":"09035bd0-c545-480c-8247-5944915fef70"}',
    },
    max_tokens: 64000,
    thinking: { type: 'adaptive' },
    context_management: { edits: [{ type: 'clear_thinking_20251015', keep: 'all' }] },
    output_config: {
      effort: 'high',
      format: {
        type: 'json_schema',
        schema: {
          type: 'object',
          properties: { title: { type: 'string' } },
          required: ['title'],
          additionalProperties: false,
        },
      },
    },
    stream,
    // The gateway's own: acted on, never sent.
    provider: { allow_fallbacks: false },
  };
}

const post = (body: Record<string, unknown>, query = '') =>
  gw.fetch(`/api/v1/messages${query}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-api-key': user.key,
      'anthropic-version': '2023-06-01',
      'anthropic-beta': BETAS,
      'x-claude-code-session-id': '09035bd0',
    },
    body: JSON.stringify(body),
  });

/** Anthropic's events as the client must see them: message_start names the gateway's model, the rest as sent. */
function asClientSees(events: NamedEvent[]): NamedEvent[] {
  return events.map(({ event, data }) => {
    const parsed = JSON.parse(data);
    return parsed.type === 'message_start'
      ? { event, data: JSON.stringify({ ...parsed, message: { ...parsed.message, model: MODEL } }) }
      : { event, data };
  });
}

async function recordOf(id: string) {
  await gw.settled();
  return gw.db.selectFrom('generations').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

describe('Messages door → Anthropic, native', () => {
  it("stream: the Claude-Code-shaped request goes as sent, Anthropic's events come back as sent, usage with the 1h split billed", async () => {
    upstream.reply({ kind: 'sse', chunks: [EVENTS] });
    const body = claudeCodeRequest(true);
    const res = await post(body, '?beta=true');
    expect(res.status).toBe(200);
    const received = sseEvents(await res.text());

    // (a) the upstream request
    const sent = upstream.last;
    expect(sent.path).toBe('/v1/messages');
    const { provider: _gatewayOnly, ...forwarded } = body;
    expect(sent.body).toEqual({ ...forwarded, model: 'claude-sonnet-5-5' });
    expect(sent.rawBody).toContain(`"messages":${JSON.stringify(body.messages)}`);
    expect(sent.headers).toMatchObject({
      'x-api-key': OPERATOR_KEY,
      'anthropic-version': '2023-06-01',
      'anthropic-beta': BETAS,
      accept: 'text/event-stream',
    });
    expect(sent.headers.authorization).toBeUndefined();
    expect(JSON.stringify(sent.headers)).not.toContain(user.key);

    // (b) the client's events: Anthropic's, in order, event lines and pings included
    expect(received).toEqual(asClientSees(sseEvents(EVENTS)));

    // (c) the record and the ledger: Anthropic's usage, cache reads and both write lifetimes priced apart
    const row = await recordOf(res.headers.get('x-generation-id')!);
    expect(row).toMatchObject({
      api_format: 'messages',
      streamed: true,
      status: 'success',
      model: MODEL,
      provider: 'anthropic',
      upstream_model: 'claude-sonnet-5-5',
      prompt_tokens: 26025,
      cached_tokens: 20000,
      cache_write_tokens: 6000,
      completion_tokens: 350,
      finish_reason: 'tool_calls',
      upstream_id: 'msg_01Xk9Qm2RvT7bN4cLp8sWz3A',
    });
    expect(row.cost_nanos).toBe(COST_NANOS);
    const debits = (await listLedger(gw.db, user.userId, 50)).filter((entry) => entry.generation_id === row.id);
    expect(debits.map((entry) => entry.amount_nanos)).toEqual([-COST_NANOS]);
  });

  it("JSON: Anthropic's Message as sent, the gateway's model id, the same usage and price", async () => {
    const message = JSON.parse(fixture('native-messages-claude-code.json'));
    upstream.reply({ kind: 'json', body: message });
    const res = await post(claudeCodeRequest(false));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ...message, model: MODEL });
    expect(upstream.last.headers.accept).toBe('application/json');
    const row = await recordOf(res.headers.get('x-generation-id')!);
    expect(row).toMatchObject({
      streamed: false,
      prompt_tokens: 26025,
      cached_tokens: 20000,
      cache_write_tokens: 6000,
      completion_tokens: 350,
    });
    expect(row.cost_nanos).toBe(COST_NANOS);
  });

  it("an Anthropic error comes back in Anthropic's envelope, the operator's key removed", async () => {
    upstream.reply({
      kind: 'json',
      status: 400,
      body: {
        type: 'error',
        error: { type: 'invalid_request_error', message: `tools.2: unknown server tool for key ${OPERATOR_KEY}` },
        request_id: 'req_011CSHoEeqs5C35K2UUqR7Fy',
      },
    });
    const res = await post(claudeCodeRequest(true));
    const text = await res.text();
    expect(res.status).toBe(400);
    expect(text).not.toContain(OPERATOR_KEY);
    const body = JSON.parse(text);
    expect(body).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
    expect(body.error.message).toContain('tools.2: unknown server tool');
  });

  it("an error event mid-stream passes as Anthropic's event, its message without the key, and the record says error", async () => {
    const start = sseEvents(EVENTS)
      .slice(0, 3)
      .map(({ event, data }) => `event: ${event}\ndata: ${data}\n\n`);
    const error = {
      type: 'error',
      error: { type: 'overloaded_error', message: `Overloaded (upstream key ${OPERATOR_KEY})` },
    };
    upstream.reply({ kind: 'sse', chunks: [...start, `event: error\ndata: ${JSON.stringify(error)}\n\n`] });
    const res = await post(claudeCodeRequest(true));
    const text = await res.text();
    expect(text).not.toContain(OPERATOR_KEY);
    const last = sseEvents(text).at(-1)!;
    expect(last.event).toBe('error');
    expect(JSON.parse(last.data)).toMatchObject({
      type: 'error',
      error: { type: 'overloaded_error', message: 'Overloaded (upstream key [redacted])' },
    });
    const row = await recordOf(res.headers.get('x-generation-id')!);
    expect(row.status).toBe('error');
  });
});
