// The real client: Codex CLI (npm @openai/codex) run headless with `codex exec`, its model provider pointed at the
// gateway (wire_api = "responses"), the gateway in front of mock upstreams (OpenAI's Responses API, Anthropic).
// Codex must print the mock's answer, with an OpenAI model natively (its request reaches OpenAI's /responses as
// Codex wrote it, on Codex's default tools too), and run a tool loop whose signed reasoning reaches Claude again
// (the translated lane). Nothing leaves loopback: a dead proxy takes every non-loopback connection Codex might try.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { clientBinary } from '../compat/client-packages.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { MockUpstream } from '../helpers/mock-upstream.js';

const CODEX = clientBinary('codex');
let gw: TestGateway;
let upstream: MockUpstream;
let key: string;
let home: string;
/** A second Codex home: Codex's defaults (web search on, the multi-agent namespace), as users run it. */
let defaultsHome: string;

beforeAll(async () => {
  upstream = await new MockUpstream().start();
  gw = await startTestGateway({
    env: {
      OPENAI_API_KEY: 'sk-up',
      OPENAI_BASE_URL: `${upstream.url}/v1`,
      ANTHROPIC_API_KEY: 'sk-ant-up',
      ANTHROPIC_BASE_URL: upstream.url,
    },
  });
  const user = await gw.createUser();
  // gpt-5.5 reserves its whole 128K output at $30/M.
  await gw.grant(user.userId, 20);
  key = user.key;
  home = mkdtempSync(join(tmpdir(), 'modelgate-codex-'));
  // The docs' provider block, plus what a headless test needs: no approvals, no update check, no analytics. Codex's
  // default tools (web_search, the multi-agent namespace, tool_search) stay on, as for any user.
  writeFileSync(
    join(home, 'config.toml'),
    `
model = "openai/gpt-5.4-mini"
model_provider = "modelgate"
approval_policy = "never"
sandbox_mode = "read-only"
check_for_update_on_startup = false

${providerBlock()}`,
  );
  defaultsHome = mkdtempSync(join(tmpdir(), 'modelgate-codex-defaults-'));
  writeFileSync(
    join(defaultsHome, 'config.toml'),
    `
model = "openai/gpt-5.5"
model_provider = "modelgate"
approval_policy = "never"
sandbox_mode = "read-only"
check_for_update_on_startup = false

${providerBlock()}`,
  );
});
afterAll(async () => {
  await gw?.close();
  await upstream?.close();
  for (const dir of [home, defaultsHome]) if (dir) rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => upstream.reset());

/** The README's provider block (and no analytics). */
const providerBlock = () => `
[analytics]
enabled = false

[model_providers.modelgate]
name = "Modelgate"
base_url = "${gw.url}/api/v1"
env_key = "MODELGATE_API_KEY"
wire_api = "responses"
request_max_retries = 0
stream_max_retries = 0
`;

function codexExec(
  prompt: string,
  ...args: string[]
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return codexIn(home, prompt, ...args);
}

function codexIn(
  dir: string,
  prompt: string,
  ...args: string[]
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const dead = 'http://127.0.0.1:9';
  const child = spawn(
    CODEX,
    ['exec', '--skip-git-repo-check', '--strict-config', '--color', 'never', ...args, prompt],
    {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        PATH: process.env.PATH ?? '',
        HOME: dir,
        CODEX_HOME: dir,
        MODELGATE_API_KEY: key,
        HTTP_PROXY: dead,
        HTTPS_PROXY: dead,
        ALL_PROXY: dead,
        http_proxy: dead,
        https_proxy: dead,
        all_proxy: dead,
        NO_PROXY: '127.0.0.1,localhost',
        no_proxy: '127.0.0.1,localhost',
      },
    },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (data) => (stdout += data));
  child.stderr.on('data', (data) => (stderr += data));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** OpenAI's Responses events for a short text answer (test/fixtures/openai, OpenAI's documented stream). */
const TEXT_EVENTS = readFileSync(
  new URL('../fixtures/openai/native-responses-text.chunks.txt', import.meta.url),
  'utf8',
);

describe('Codex CLI through the Responses front door', () => {
  it("codex exec prints the answer of the mock upstream: an OpenAI model goes to OpenAI's /responses natively", async () => {
    upstream.always({ kind: 'sse', chunks: [TEXT_EVENTS] });
    const run = await codexExec('Say hello');
    expect(run.stdout + run.stderr).toContain('Hello from the modelgate mock.');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Hello from the modelgate mock.');
    // Codex's request reached OpenAI's Responses API as Codex wrote it: the upstream model name, store false, its
    // developer instructions and the prompt as input items, its cache key.
    const sent = upstream.requests.find((request) => request.path === '/v1/responses');
    expect(sent?.body).toMatchObject({
      model: 'gpt-5.4-mini',
      stream: true,
      store: false,
      include: ['reasoning.encrypted_content'],
    });
    expect(sent?.body.input.some((item: { role?: string }) => item.role === 'developer')).toBe(true);
    expect(JSON.stringify(sent?.body.input.at(-1))).toContain('Say hello');
    // Codex's thread id as the cache key, kept (the translated lane lost it before issue 37).
    expect(sent?.body.prompt_cache_key).toMatch(/^[0-9a-f-]{36}$/);
    expect(sent?.headers.authorization).toBe('Bearer sk-up');
    expect(upstream.requests.some((request) => request.path === '/v1/chat/completions')).toBe(false);
    await gw.settled();
    const rows = await gw.db
      .selectFrom('generations')
      .select(['api_format', 'streamed', 'status', 'prompt_tokens', 'completion_tokens'])
      .execute();
    expect(rows).toContainEqual({
      api_format: 'responses',
      streamed: true,
      status: 'success',
      prompt_tokens: 900,
      completion_tokens: 6,
    });
  }, 120_000);

  it("on Codex's defaults, openai/gpt-5.5 goes through natively with its freeform apply_patch, tool_search and web_search", async () => {
    upstream.always({ kind: 'sse', chunks: [TEXT_EVENTS] });
    const run = await codexIn(defaultsHome, 'Say hello');
    expect(run.stdout, run.stderr).toContain('Hello from the modelgate mock.');
    expect(run.code).toBe(0);
    const sent = upstream.requests.find((request) => request.path === '/v1/responses');
    expect(sent?.body).toMatchObject({ model: 'gpt-5.5', store: false, text: { verbosity: 'low' } });
    // Codex's gpt-5.5 tools (research-clients.md §4.2b), which the translated lane cannot all carry: a custom
    // (freeform) tool with a Lark grammar, client-executed tool search, hosted web search.
    const tools = sent?.body.tools as Array<{
      type: string;
      name?: string;
      format?: { type: string; syntax?: string };
    }>;
    const applyPatch = tools.find((tool) => tool.name === 'apply_patch');
    expect(applyPatch).toMatchObject({ type: 'custom', format: { type: 'grammar', syntax: 'lark' } });
    expect(tools.some((tool) => tool.type === 'tool_search')).toBe(true);
    expect(tools.some((tool) => tool.type === 'web_search')).toBe(true);
    // Passed as Codex wrote them: the upstream got the bytes Codex sent for the tools, in order.
    expect(sent?.rawBody).toContain(`"tools":${JSON.stringify(tools)}`);
    expect(sent?.body.client_metadata).toBeTypeOf('object');
  }, 120_000);

  it('runs a tool loop with Claude: the function_call_output and the signed thinking go back upstream', async () => {
    const sse = (events: Array<Record<string, unknown>>) =>
      events.map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
    const start = {
      type: 'message_start',
      message: {
        id: 'msg_codex',
        type: 'message',
        role: 'assistant',
        content: [],
        model: 'claude-haiku-5-5',
        usage: { input_tokens: 900, output_tokens: 1 },
      },
    };
    upstream.reply({
      kind: 'sse',
      chunks: sse([
        start,
        { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } },
        { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'I should run echo.' } },
        { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'sig-codex-thinking' } },
        { type: 'content_block_stop', index: 0 },
        {
          type: 'content_block_start',
          index: 1,
          content_block: { type: 'tool_use', id: 'toolu_codex_1', name: 'exec_command', input: {} },
        },
        {
          type: 'content_block_delta',
          index: 1,
          delta: { type: 'input_json_delta', partial_json: '{"cmd":"echo codex-tool-ran"}' },
        },
        { type: 'content_block_stop', index: 1 },
        {
          type: 'message_delta',
          delta: { stop_reason: 'tool_use', stop_sequence: null },
          usage: { output_tokens: 30 },
        },
        { type: 'message_stop' },
      ]),
    });
    upstream.always({
      kind: 'sse',
      chunks: sse([
        start,
        { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
        {
          type: 'content_block_delta',
          index: 0,
          delta: { type: 'text_delta', text: 'The tool loop through Modelgate is done.' },
        },
        { type: 'content_block_stop', index: 0 },
        { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 9 } },
        { type: 'message_stop' },
      ]),
    });
    const run = await codexExec('Run echo codex-tool-ran', '-m', 'anthropic/claude-haiku-5-5');
    expect(run.stdout, run.stderr).toContain('The tool loop through Modelgate is done.');
    const calls = upstream.requests.filter((request) => request.path === '/v1/messages');
    expect(calls.length).toBeGreaterThanOrEqual(2);
    const messages = calls[1].body.messages as Array<{ role: string; content: any }>;
    const assistant = messages.find(
      (message) =>
        message.role === 'assistant' &&
        Array.isArray(message.content) &&
        message.content.some((block: any) => block.type === 'tool_use'),
    );
    expect(assistant?.content).toEqual([
      { type: 'thinking', thinking: 'I should run echo.', signature: 'sig-codex-thinking' },
      { type: 'tool_use', id: 'toolu_codex_1', name: 'exec_command', input: { cmd: 'echo codex-tool-ran' } },
    ]);
    const result = messages[messages.indexOf(assistant!) + 1];
    expect(result.content[0]).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_codex_1' });
  }, 120_000);
});
