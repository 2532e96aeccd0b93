// The real client: Gemini CLI (npm @google/gemini-cli) run headless (`gemini -p … -o json`), GOOGLE_GEMINI_BASE_URL
// pointed at the gateway's Gemini door, the gateway in front of a mock Gemini API and a mock Anthropic API. The CLI must
// print the mock's answer, and run its read_file tool through a function call and response, with a Gemini model and
// with a Claude model. Nothing leaves loopback: a dead proxy takes every other connection the CLI might try, and its
// telemetry, usage statistics and update checks are off (research-clients §5.1 has the setup and why).
import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { clientBinary } from '../compat/client-packages.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';

const GEMINI = clientBinary('gemini');
let gw: TestGateway;
let key: string;
let home: string;
let workspace: string;

/** Every request the mock upstream received: path and parsed body. */
const seen: Array<{ path: string; body: any }> = [];

const geminiSse = (chunks: unknown[]) => chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\r\n\r\n`).join('');
const anthropicSse = (events: Array<Record<string, unknown>>) =>
  events.map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`).join('');

/** Gemini: a signed read_file call first; once the conversation holds its functionResponse, the answer. */
function geminiAnswer(body: any): string {
  const answered = JSON.stringify(body.contents).includes('functionResponse');
  const usage = { promptTokenCount: 1200, candidatesTokenCount: 8, totalTokenCount: 1208 };
  if (!answered) {
    return geminiSse([
      {
        candidates: [
          {
            content: {
              role: 'model',
              parts: [
                { text: 'Let me look.', thought: true },
                {
                  functionCall: { name: 'read_file', args: { file_path: 'readme.txt' } },
                  thoughtSignature: 'c2lnLWdlbWluaS1jbGk=',
                },
              ],
            },
            finishReason: 'STOP',
            index: 0,
          },
        ],
        usageMetadata: usage,
        modelVersion: 'gemini-3.1-pro-preview',
      },
    ]);
  }
  return geminiSse([
    {
      candidates: [{ content: { role: 'model', parts: [{ text: 'The file says: ' }] }, index: 0 }],
      modelVersion: 'gemini-3.1-pro-preview',
    },
    {
      candidates: [
        { content: { role: 'model', parts: [{ text: 'hello from gemini cli' }] }, finishReason: 'STOP', index: 0 },
      ],
      usageMetadata: usage,
      modelVersion: 'gemini-3.1-pro-preview',
    },
  ]);
}

/** Claude: thinking and a Read call first; once a tool_result came back, the answer. */
function anthropicAnswer(body: any): string {
  const answered = JSON.stringify(body.messages).includes('tool_result');
  const start = {
    type: 'message_start',
    message: {
      id: 'msg_gcli',
      type: 'message',
      role: 'assistant',
      content: [],
      model: 'claude-sonnet-5-5',
      usage: { input_tokens: 1200, output_tokens: 1 },
    },
  };
  const end = (reason: string) => [
    { type: 'message_delta', delta: { stop_reason: reason, stop_sequence: null }, usage: { output_tokens: 9 } },
    { type: 'message_stop' },
  ];
  if (!answered) {
    return anthropicSse([
      start,
      { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'I should read it.' } },
      {
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'signature_delta', signature: 'sig-gemini-cli-thinking' },
      },
      { type: 'content_block_stop', index: 0 },
      {
        type: 'content_block_start',
        index: 1,
        content_block: { type: 'tool_use', id: 'toolu_gcli_1', name: 'read_file', input: {} },
      },
      { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"file_path":' } },
      { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '"readme.txt"}' } },
      { type: 'content_block_stop', index: 1 },
      ...end('tool_use'),
    ]);
  }
  return anthropicSse([
    start,
    { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
    {
      type: 'content_block_delta',
      index: 0,
      delta: { type: 'text_delta', text: 'Claude read: hello from gemini cli' },
    },
    { type: 'content_block_stop', index: 0 },
    ...end('end_turn'),
  ]);
}

/** What Gemini CLI's classifier model answers: its JSON choice between its Flash and Pro models. */
const classifierAnswer = {
  candidates: [
    {
      content: {
        role: 'model',
        parts: [{ text: '{"reasoning":"Reading a file and answering.","model_choice":"pro"}' }],
      },
      finishReason: 'STOP',
      index: 0,
    },
  ],
  usageMetadata: { promptTokenCount: 900, candidatesTokenCount: 20, totalTokenCount: 920 },
  modelVersion: 'gemini-3.5-flash',
};

const upstream = http.createServer((req, res) => {
  let raw = '';
  req.on('data', (data) => (raw += data));
  req.on('end', () => {
    const body = JSON.parse(raw || '{}');
    seen.push({ path: req.url ?? '', body });
    if (req.url?.endsWith(':generateContent')) {
      // The auto router's classifier (non-streamed, JSON output): it chooses the Pro model.
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(classifierAnswer));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.end(req.url?.startsWith('/v1/messages') ? anthropicAnswer(body) : geminiAnswer(body));
  });
});

beforeAll(async () => {
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  gw = await startTestGateway({
    env: {
      GEMINI_API_KEY: 'AIzaUpstream',
      GOOGLE_BASE_URL: `${upstreamUrl}/v1beta`,
      ANTHROPIC_API_KEY: 'sk-ant-up',
      ANTHROPIC_BASE_URL: upstreamUrl,
    },
  });
  const user = await gw.createUser();
  await gw.grant(user.userId, 5);
  key = user.key;
  home = mkdtempSync(join(tmpdir(), 'modelgate-gemini-cli-'));
  workspace = join(home, 'work');
  mkdirSync(join(home, '.gemini'), { recursive: true });
  mkdirSync(workspace);
  writeFileSync(join(workspace, 'readme.txt'), 'hello from gemini cli\n');
  // docs/clients.md's settings.json: the API-key auth pinned (0.61 refuses GOOGLE_GEMINI_BASE_URL without it), no
  // usage statistics, telemetry or update checks.
  writeFileSync(
    join(home, '.gemini', 'settings.json'),
    JSON.stringify({
      security: { auth: { selectedType: 'gemini-api-key' } },
      privacy: { usageStatisticsEnabled: false },
      general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
      telemetry: { enabled: false },
    }),
  );
});
afterAll(async () => {
  await gw?.close();
  upstream.closeAllConnections();
  await new Promise<void>((resolve) => upstream.close(() => resolve()));
  if (home) rmSync(home, { recursive: true, force: true });
});
beforeEach(() => {
  seen.length = 0;
});

function gemini(prompt: string, model?: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const dead = 'http://127.0.0.1:9';
  const child = spawn(
    process.execPath,
    [GEMINI, '--skip-trust', ...(model ? ['-m', model] : []), '-o', 'json', '-p', prompt],
    {
      cwd: workspace,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        PATH: process.env.PATH ?? '',
        HOME: home,
        GEMINI_API_KEY: key,
        GOOGLE_GEMINI_BASE_URL: `${gw.url}/api/v1/gemini`,
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

/** The CLI's JSON output: the last JSON object it printed. */
function output(stdout: string): { response?: string; stats?: { tools?: { totalCalls?: number } }; error?: unknown } {
  return JSON.parse(stdout.slice(stdout.indexOf('{')));
}

describe('Gemini CLI through the Gemini door', () => {
  it('with a Gemini model: the answer, after read_file ran through a signed function call', async () => {
    const run = await gemini('Read readme.txt and tell me what it says', 'gemini-3.1-pro-preview');
    expect(run.code, run.stderr).toBe(0);
    const out = output(run.stdout);
    expect(out.error).toBeUndefined();
    expect(out.response).toContain('The file says: hello from gemini cli');
    expect(out.stats?.tools?.totalCalls).toBeGreaterThanOrEqual(1);
    const turns = seen.filter((request) =>
      request.path.startsWith('/v1beta/models/gemini-3.1-pro-preview:streamGenerateContent'),
    );
    expect(turns).toHaveLength(2);
    // The CLI's tool turn reached Gemini: the call with its signature, the file's text in the function response.
    const contents = turns[1].body.contents as Array<{ role: string; parts: any[] }>;
    const call = contents.flatMap((c) => c.parts).find((p) => p.functionCall);
    expect(call).toMatchObject({ functionCall: { name: 'read_file' }, thoughtSignature: 'c2lnLWdlbWluaS1jbGk=' });
    expect(JSON.stringify(contents.flatMap((c) => c.parts).find((p) => p.functionResponse))).toContain(
      'hello from gemini cli',
    );
    await gw.settled();
    const rows = await gw.db
      .selectFrom('generations')
      .select(['api_format', 'model', 'status'])
      .where('api_format', '=', 'gemini')
      .execute();
    expect(rows).toContainEqual({ api_format: 'gemini', model: 'google/gemini-3.1-pro-preview', status: 'success' });
  }, 180_000);

  it('with a Claude model (`-m anthropic/claude-sonnet-5-5`): the answer, after read_file ran; the thinking went back to Claude', async () => {
    const run = await gemini('Read readme.txt and tell me what it says', 'anthropic/claude-sonnet-5-5');
    expect(run.code, run.stderr).toBe(0);
    const out = output(run.stdout);
    expect(out.error).toBeUndefined();
    expect(out.response).toContain('Claude read: hello from gemini cli');
    expect(out.stats?.tools?.totalCalls).toBeGreaterThanOrEqual(1);
    const turns = seen.filter((request) => request.path === '/v1/messages');
    expect(turns).toHaveLength(2);
    const assistant = (turns[1].body.messages as Array<{ role: string; content: any[] }>).find(
      (m) => m.role === 'assistant',
    );
    expect(assistant?.content).toEqual([
      { type: 'thinking', thinking: 'I should read it.', signature: 'sig-gemini-cli-thinking' },
      { type: 'tool_use', id: 'toolu_gcli_1', name: 'read_file', input: { file_path: 'readme.txt' } },
    ]);
    expect(JSON.stringify(turns[1].body.messages.at(-1))).toContain('hello from gemini cli');
  }, 180_000);

  it("with its default model (auto routing): its classifier's gemini-3.5-flash-lite is a catalog alias, so no request of the session is a 404; the CLI goes on with the model the classifier chose", async () => {
    const logged = gw.logs.length;
    const run = await gemini('Read readme.txt and tell me what it says');
    expect(run.code, run.stderr).toBe(0);
    expect(output(run.stdout).response).toContain('The file says: hello from gemini cli');
    const asked = gw.logs
      .slice(logged)
      .map((line) => JSON.parse(line))
      .filter((line) => line.msg === 'request' && String(line.path).startsWith('/api/v1/gemini/'));
    expect(asked[0]).toMatchObject({
      path: '/api/v1/gemini/v1beta/models/gemini-3.5-flash-lite:generateContent',
      status: 200,
    });
    expect(asked.filter((line) => line.status >= 400)).toEqual([]);
    // The alias's model served the classifier; the turns went to the Pro model the classifier chose.
    expect(seen[0].path).toBe('/v1beta/models/gemini-3.5-flash:generateContent');
    expect(
      seen
        .slice(1)
        .every((request) => request.path.startsWith('/v1beta/models/gemini-3.1-pro-preview:streamGenerateContent')),
    ).toBe(true);
  }, 180_000);
});
