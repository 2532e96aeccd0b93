// The Responses door to OpenAI is the native lane (docs/lanes.md): a Codex-shaped request (research-clients.md §4.2b,
// §4.3) reaches OpenAI's /v1/responses as the client wrote it — model spliced, gateway-only fields gone, store:false,
// the openai-beta header passed, every tool, item and unknown field kept — and OpenAI's events come back as sent, only
// the Response objects' `model` (the gateway's id) and `usage.cost` rewritten. The record and ledger carry OpenAI's
// usage (cached and reasoning tokens). Errors come back in the door's envelope without the operator's key; a failure
// before the first event fails over to a model on another lane; a reasoning stream is drained after its client left.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { MockUpstream } from '../helpers/mock-upstream.js';
import { sseEvents, type NamedEvent } from '../helpers/native-sse.js';
import { listLedger } from '../../src/repositories/credits.js';
import type { GenerationRow } from '../../src/db/tables/generations.js';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/openai/${name}`, import.meta.url), 'utf8');
const CUSTOM_TOOL_EVENTS = fixture('native-responses-custom-tool.chunks.txt');
const MODEL = 'openai/gpt-5.5';
// gpt-5.5 (USD per 1M): input 5, cached read 0.5, output 30 (reasoning tokens are output tokens).
// 12,000 in of which 8,192 cached, 420 out: 3,808×5 + 8,192×0.5 + 420×30 = 35,736 USD per 1M → 35,736,000 nanos.
const COST_NANOS = 35_736_000n;

let gw: TestGateway;
let upstream: MockUpstream;
let user: Awaited<ReturnType<TestGateway['createUser']>>;

beforeAll(async () => {
  upstream = await new MockUpstream().start();
  gw = await startTestGateway({
    env: {
      OPENAI_API_KEY: 'sk-proj-operator-secret-0123456789',
      OPENAI_BASE_URL: `${upstream.url}/v1`,
      ANTHROPIC_API_KEY: 'sk-ant-up',
      ANTHROPIC_BASE_URL: upstream.url,
      MODELGATE_DRAIN_ON_ABORT_S: '2',
    },
  });
  user = await gw.createUser();
  await gw.grant(user.userId, 50);
});
afterAll(async () => {
  await gw?.close();
  await upstream?.close();
});
beforeEach(() => upstream.reset());

const APPLY_PATCH_GRAMMAR =
  'start: begin_patch hunk+ end_patch\nbegin_patch: "*** Begin Patch" LF\nend_patch: "*** End Patch" LF?\n\nhunk: add_hunk | delete_hunk | update_hunk\nadd_hunk: "*** Add File: " filename LF add_line+\ndelete_hunk: "*** Delete File: " filename LF\nupdate_hunk: "*** Update File: " filename LF change_move? change?\n\nfilename: /(.+)/\nadd_line: "+" /(.*)/ LF -> line\n\nchange_move: "*** Move to: " filename LF\nchange: (change_context | change_line)+ eof_line?\nchange_context: ("@@" | "@@ " /(.+)/) LF\nchange_line: ("+" | "-" | " ") /(.*)/ LF\neof_line: "*** End of File" LF\n\n%import common.LF\n';

/** Codex 0.169's second turn with gpt-5.5 (research-clients.md §4.2b, §4.3), plus the gateway's own fields. */
function codexRequest(stream: boolean): Record<string, unknown> {
  return {
    model: MODEL,
    stream,
    tool_choice: 'auto',
    parallel_tool_calls: true,
    reasoning: { effort: 'medium', summary: 'auto', context: 'all_turns' },
    store: false,
    include: ['reasoning.encrypted_content'],
    prompt_cache_key: '01a220c3-3f43-7501-ad66-9432e475b23f',
    prompt_cache_retention: '24h',
    safety_identifier: 'user-7f3a',
    text: { verbosity: 'low' },
    client_metadata: {
      session_id: '01a220c3-3f43-7501-ad66-9432e475b23f',
      turn_id: 't-2',
      mcp_attribution: '{"status":"none"}',
    },
    input: [
      {
        type: 'additional_tools',
        id: 'at_01a220c3-3f9a-7000-8000-000000000001',
        role: 'developer',
        tools: [
          {
            type: 'namespace',
            name: 'clock',
            description: 'Tools for reading and waiting on time.',
            tools: [
              {
                type: 'function',
                name: 'sleep',
                description: 'Sleeps.',
                strict: false,
                parameters: { type: 'object', properties: { ms: { type: 'number' } }, required: ['ms'] },
              },
            ],
          },
        ],
      },
      {
        type: 'message',
        id: 'msg_01a220c3-0001',
        role: 'developer',
        content: [{ type: 'input_text', text: 'You are Codex, a coding agent based on GPT-5.' }],
      },
      {
        type: 'message',
        id: 'msg_01a220c3-0002',
        role: 'user',
        content: [{ type: 'input_text', text: 'Add a newline to hello.txt' }],
      },
      {
        type: 'reasoning',
        id: 'rs_mock_1',
        summary: [{ type: 'summary_text', text: 'Thinking briefly.' }],
        content: null,
        encrypted_content: 'gAAAAB-mock-encrypted',
      },
      {
        type: 'custom_tool_call',
        id: 'ctc_mock_1',
        status: 'completed',
        call_id: 'call_mock_1',
        name: 'apply_patch',
        input: '*** Begin Patch\n*** Add File: hello.txt\n+hi\n*** End Patch',
      },
      {
        type: 'custom_tool_call_output',
        id: 'ctco_01a220c3-8ede-73f0-a6b3-c6fa72d98066',
        call_id: 'call_mock_1',
        output: [
          { type: 'input_text', text: 'Script completed\n' },
          { type: 'input_text', text: 'A hello.txt\n' },
        ],
      },
      {
        type: 'function_call',
        status: 'completed',
        id: 'fc_mock_2',
        name: 'exec_command',
        arguments: '{"cmd":"cat hello.txt"}',
        call_id: 'call_mock_2',
      },
      { type: 'function_call_output', id: 'fco_01a220c3-0003', call_id: 'call_mock_2', output: 'hi\n' },
    ],
    tools: [
      {
        type: 'function',
        name: 'exec_command',
        description: 'Runs a command in a PTY.',
        strict: false,
        parameters: {
          type: 'object',
          properties: { cmd: { type: 'string' } },
          required: ['cmd'],
          additionalProperties: false,
        },
      },
      {
        type: 'custom',
        name: 'apply_patch',
        description:
          'The `apply_patch` tool can be used to edit files. This is a FREEFORM tool, so do not wrap the patch in JSON.',
        format: { type: 'grammar', syntax: 'lark', definition: APPLY_PATCH_GRAMMAR },
      },
      {
        type: 'tool_search',
        execution: 'client',
        description: '# Tool discovery',
        parameters: {
          type: 'object',
          properties: { query: { type: 'string' } },
          required: ['query'],
          additionalProperties: false,
        },
      },
      { type: 'web_search', external_web_access: false, search_content_types: ['text', 'image'] },
    ],
    // A field OpenAI may add tomorrow: it passes.
    future_option: { enabled: true },
    // The gateway's own: acted on, never sent.
    provider: { allow_fallbacks: true },
  };
}

const post = (body: Record<string, unknown>, headers: Record<string, string> = {}, key = user.key) =>
  gw.fetch('/api/v1/responses', {
    method: 'POST',
    key,
    headers: { 'content-type': 'application/json', 'openai-beta': 'responses=v1', ...headers },
    body: JSON.stringify(body),
  });

/** The upstream's events as the client must see them: Response objects with the gateway's model id and the cost. */
function asClientSees(events: NamedEvent[], costUsd: number): NamedEvent[] {
  return events.map(({ event, data }) => {
    const parsed = JSON.parse(data);
    if (!parsed.response) return { event, data };
    const response = { ...parsed.response, model: MODEL };
    if (response.usage)
      response.usage = { ...response.usage, cost: costUsd, cost_details: { access_mode: 'credits', charged: true } };
    return { event, data: JSON.stringify({ ...parsed, response }) };
  });
}

async function recordOf(id: string) {
  await gw.settled();
  return gw.db.selectFrom('generations').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

describe('Responses door → OpenAI, native', () => {
  it('stream: the Codex-shaped request goes as sent (model spliced, store:false, gateway fields gone), the events come back as sent', async () => {
    upstream.reply({ kind: 'sse', chunks: [CUSTOM_TOOL_EVENTS] });
    const body = codexRequest(true);
    const res = await post(body);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const received = sseEvents(await res.text());

    // (a) the upstream request: the client's body less `provider`, `model` OpenAI's name, everything else as sent.
    const sent = upstream.last;
    expect(sent.path).toBe('/v1/responses');
    const { provider: _gatewayOnly, ...forwarded } = body;
    expect(sent.body).toEqual({ ...forwarded, model: 'gpt-5.5', store: false });
    // Spliced, not re-serialised: the input items' bytes are the client's.
    expect(sent.rawBody).toContain(`"input":${JSON.stringify(body.input)}`);
    expect(sent.headers).toMatchObject({
      authorization: 'Bearer sk-proj-operator-secret-0123456789',
      'openai-beta': 'responses=v1',
      accept: 'text/event-stream',
    });
    expect(sent.rawBody).not.toContain(user.key);

    // (b) the client's events: OpenAI's, in order, event lines included; only Response objects rewritten.
    expect(received).toEqual(asClientSees(sseEvents(CUSTOM_TOOL_EVENTS), Number(COST_NANOS) / 1e9));
    const types = received.map((e) => JSON.parse(e.data).type);
    expect(types).toContain('response.custom_tool_call_input.delta');
    expect(types.at(-1)).toBe('response.completed');

    // (c) the record and the ledger carry OpenAI's usage and its price.
    const row = await recordOf(res.headers.get('x-generation-id')!);
    expect(row).toMatchObject({
      api_format: 'responses',
      streamed: true,
      status: 'success',
      model: MODEL,
      provider: 'openai',
      upstream_model: 'gpt-5.5',
      prompt_tokens: 12000,
      cached_tokens: 8192,
      completion_tokens: 420,
      reasoning_tokens: 256,
      finish_reason: 'tool_calls',
      upstream_id: 'resp_68a1c3e5f0d48190b2e7c4a9d1f3e5b70a6c2d4e8f1b3a5c',
    });
    expect(row.cost_nanos).toBe(COST_NANOS);
    const debits = (await listLedger(gw.db, user.userId, 50)).filter((entry) => entry.generation_id === row.id);
    expect(debits.map((entry) => entry.amount_nanos)).toEqual([-COST_NANOS]);
  });

  it("JSON: OpenAI's Response object as sent, model and usage.cost in the door's terms, reasoning tokens metered", async () => {
    const upstreamBody = JSON.parse(fixture('native-responses-reasoning.json'));
    upstream.reply({ kind: 'json', body: upstreamBody });
    const res = await post(codexRequest(false));
    expect(res.status).toBe(200);
    const answer = await res.json();
    expect(answer).toEqual({
      ...upstreamBody,
      model: MODEL,
      usage: {
        ...upstreamBody.usage,
        cost: Number(COST_NANOS) / 1e9,
        cost_details: { access_mode: 'credits', charged: true },
      },
    });
    expect(upstream.last.headers.accept).toBe('application/json');
    const row = await recordOf(res.headers.get('x-generation-id')!);
    expect(row).toMatchObject({
      streamed: false,
      prompt_tokens: 12000,
      cached_tokens: 8192,
      completion_tokens: 420,
      reasoning_tokens: 256,
      finish_reason: 'stop',
    });
    expect(row.cost_nanos).toBe(COST_NANOS);
  });

  it("JSON: OpenAI's cache writes (input_tokens_details.cache_write_tokens) are recorded, billed at the input price", async () => {
    const upstreamBody = JSON.parse(fixture('native-responses-reasoning.json'));
    upstreamBody.usage.input_tokens_details.cache_write_tokens = 2048;
    upstream.reply({ kind: 'json', body: upstreamBody });
    const res = await post(codexRequest(false));
    expect(res.status).toBe(200);
    await res.json();
    const row = await recordOf(res.headers.get('x-generation-id')!);
    expect(row).toMatchObject({ prompt_tokens: 12000, cached_tokens: 8192, cache_write_tokens: 2048 });
    // gpt-5.5 names no cache-write price: a written token costs its input price, so the total is the same.
    expect(row.cost_nanos).toBe(COST_NANOS);
  });

  it('store: true is kept by the gateway: OpenAI is sent store:false and asked for the encrypted reasoning', async () => {
    upstream.reply({ kind: 'sse', chunks: [fixture('native-responses-text.chunks.txt')] });
    const res = await post({ model: MODEL, stream: true, store: true, input: 'hi' });
    const events = sseEvents(await res.text());
    expect(upstream.last.body).toEqual({
      model: 'gpt-5.5',
      stream: true,
      store: false,
      input: 'hi',
      include: ['reasoning.encrypted_content'],
    });
    expect(res.headers.get('x-modelgate-warning')).toBeNull();
    const done = JSON.parse(events.find((event) => event.event === 'response.completed')!.data);
    expect(done.response).toMatchObject({ id: res.headers.get('x-generation-id'), store: true });
  });

  it("an upstream error comes back in the door's envelope, the operator's key removed", async () => {
    // A vendor message that echoes the credential (a proxy's, a misconfigured base URL's): it must not reach the client.
    upstream.reply({
      kind: 'json',
      status: 400,
      body: {
        error: {
          message: "Invalid value for 'tools[1].format': grammar rejected for key sk-proj-operator-secret-0123456789.",
          type: 'invalid_request_error',
          param: 'tools[1].format',
          code: 'invalid_value',
        },
      },
    });
    const res = await post(codexRequest(true));
    const text = await res.text();
    expect(res.status).toBe(400);
    expect(text).not.toContain('sk-proj-operator-secret-0123456789');
    const { error } = JSON.parse(text);
    expect(error).toMatchObject({ code: 400, metadata: { provider: 'openai', upstream_status: 400 } });
    // The vendor's reason reaches the client, the key masked.
    expect(error.message).toMatch(/grammar rejected for key (\[redacted\]|sk-\*\*\*)\./);
  });

  it('an unknown previous_response_id is a 400 previous_response_not_found, before anything is sent', async () => {
    const res = await post({ model: MODEL, input: 'again', previous_response_id: 'resp_1' });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatchObject({
      code: 'previous_response_not_found',
      message: "Previous response with id 'resp_1' not found.",
      metadata: { param: 'previous_response_id' },
    });
    expect(upstream.requests).toHaveLength(0);
  });
});

describe('across lanes', () => {
  it('a failure before the first event fails over from OpenAI (native) to Claude (translated), one record, one charge', async () => {
    const anthropicSse = (events: Array<Record<string, unknown>>) =>
      events.map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
    upstream.reply(
      {
        kind: 'json',
        status: 500,
        body: {
          error: {
            message: 'The server had an error while processing your request.',
            type: 'server_error',
            param: null,
            code: null,
          },
        },
      },
      {
        kind: 'sse',
        chunks: anthropicSse([
          {
            type: 'message_start',
            message: {
              id: 'msg_fo',
              type: 'message',
              role: 'assistant',
              content: [],
              model: 'claude-haiku-5-5',
              usage: { input_tokens: 20, output_tokens: 1 },
            },
          },
          { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
          { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Served by Claude.' } },
          { type: 'content_block_stop', index: 0 },
          {
            type: 'message_delta',
            delta: { stop_reason: 'end_turn', stop_sequence: null },
            usage: { output_tokens: 5 },
          },
          { type: 'message_stop' },
        ]),
      },
    );
    const res = await post({ model: MODEL, models: ['anthropic/claude-haiku-5-5'], stream: true, input: 'hi' });
    expect(res.status).toBe(200);
    const received = sseEvents(await res.text()).map((e) => JSON.parse(e.data));
    expect(upstream.requests.map((r) => r.path)).toEqual(['/v1/responses', '/v1/messages']);
    // The second attempt is the translated lane: the door's own events, with the gateway's ids.
    const id = res.headers.get('x-generation-id')!;
    expect(received.at(-1)).toMatchObject({
      type: 'response.completed',
      response: { id, model: 'anthropic/claude-haiku-5-5', status: 'completed' },
    });
    expect(JSON.stringify(received)).toContain('Served by Claude.');
    const row = await recordOf(id);
    expect(row).toMatchObject({
      status: 'success',
      model: 'anthropic/claude-haiku-5-5',
      provider: 'anthropic',
      prompt_tokens: 20,
      completion_tokens: 5,
    });
    expect(row.attempts).toHaveLength(2);
    const debits = (await listLedger(gw.db, user.userId, 50)).filter((entry) => entry.generation_id === id);
    expect(debits).toHaveLength(1);
  });

  it('a client leaving a native reasoning stream: OpenAI is read on, its usage (hidden reasoning included) billed', async () => {
    const events = sseEvents(CUSTOM_TOOL_EVENTS).map(({ event, data }) => `event: ${event}\ndata: ${data}\n\n`);
    // The reasoning summary reaches the client; the rest comes after a pause (the reasoning it does not see).
    upstream.reply({ kind: 'sse', chunks: [...events.slice(0, 6), { pauseMs: 500 }, ...events.slice(6)] });
    const controller = new AbortController();
    const res = await gw.fetch('/api/v1/responses', {
      method: 'POST',
      key: user.key,
      headers: { 'content-type': 'application/json' },
      signal: controller.signal,
      body: JSON.stringify({ model: MODEL, stream: true, input: 'Think hard' }),
    });
    const id = res.headers.get('x-generation-id')!;
    const reader = res.body!.getReader();
    let text = '';
    while (!text.includes('Planning the patch')) text += new TextDecoder().decode((await reader.read()).value);
    controller.abort();
    let row: GenerationRow | undefined;
    for (let i = 0; i < 200 && !row; i++) {
      row = await gw.db.selectFrom('generations').selectAll().where('id', '=', id).executeTakeFirst();
      if (!row) await new Promise((r) => setTimeout(r, 25));
    }
    expect(row).toMatchObject({
      status: 'aborted',
      prompt_tokens: 12000,
      completion_tokens: 420,
      reasoning_tokens: 256,
    });
    expect(row!.cost_nanos).toBe(COST_NANOS);
  });
});
