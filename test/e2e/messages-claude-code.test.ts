// The real client: Claude Code (npm @anthropic-ai/claude-code) runs headless (`claude -p`) against the gateway's
// Messages door, with ANTHROPIC_BASE_URL, ANTHROPIC_AUTH_TOKEN and ANTHROPIC_MODEL set, telemetry, auto-update and
// nonessential traffic off, a throwaway HOME, and an OpenAI-compatible mock upstream on loopback. It must print the
// mock's answer. Whatever else Claude Code asks for (count_tokens, a small-model call) is answered too.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenAICompatibleAdapter } from '../../src/providers/openai-compatible/index.js';
import { createAnthropicAdapter } from '../../src/providers/anthropic/index.js';
import { clientBinary } from '../compat/client-packages.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';

const ANSWER = 'The mock upstream says: forty-two.';
const CLAUDE = clientBinary('claude');

let gw: TestGateway;
let mock: Server;
let anthropicMock: Server;
const anthropicBodies: Array<{ path: string; headers: Record<string, unknown>; body: Record<string, any> }> = [];
let home: string;
const upstreamBodies: Array<Record<string, unknown>> = [];

/** An OpenAI-compatible upstream answering every chat request with ANSWER, streamed or not as asked. */
function startMock(): Promise<Server> {
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
      upstreamBodies.push(body);
      const usage = { prompt_tokens: 50, completion_tokens: 9, total_tokens: 59 };
      if (body.stream) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        const chunk = (delta: unknown, finish: string | null, extra = {}) =>
          `data: ${JSON.stringify({ id: 'chatcmpl-cc', object: 'chat.completion.chunk', created: 1, model: 'gpt', choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`;
        res.end(
          `${chunk({ role: 'assistant', content: ANSWER }, null)}${chunk({}, 'stop', { usage })}data: [DONE]\n\n`,
        );
      } else {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            id: 'chatcmpl-cc',
            object: 'chat.completion',
            created: 1,
            model: 'gpt',
            choices: [{ index: 0, message: { role: 'assistant', content: ANSWER }, finish_reason: 'stop' }],
            usage,
          }),
        );
      }
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** A native Anthropic upstream: Messages SSE or JSON with ANSWER, and a token count. */
function startAnthropicMock(): Promise<Server> {
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      const body = raw ? (JSON.parse(raw) as Record<string, any>) : {};
      anthropicBodies.push({ path: req.url ?? '', headers: req.headers, body });
      res.writeHead(200, { 'content-type': body.stream ? 'text/event-stream' : 'application/json' });
      if (req.url?.endsWith('/count_tokens')) return res.end(JSON.stringify({ input_tokens: 321 }));
      const usage = {
        input_tokens: 40,
        output_tokens: 9,
        cache_read_input_tokens: 1000,
        cache_creation_input_tokens: 0,
      };
      const message = {
        id: 'msg_cc',
        type: 'message',
        role: 'assistant',
        model: body.model,
        content: [] as unknown[],
        stop_reason: null,
        stop_sequence: null,
        usage,
      };
      if (!body.stream)
        return res.end(
          JSON.stringify({ ...message, content: [{ type: 'text', text: ANSWER }], stop_reason: 'end_turn' }),
        );
      const event = (type: string, data: Record<string, unknown>) =>
        `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
      res.end(
        event('message_start', { message }) +
          event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }) +
          event('content_block_delta', { index: 0, delta: { type: 'text_delta', text: ANSWER } }) +
          event('content_block_stop', { index: 0 }) +
          event('message_delta', {
            delta: { stop_reason: 'end_turn', stop_sequence: null },
            usage: { output_tokens: 9 },
          }) +
          event('message_stop', {}),
      );
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

beforeAll(async () => {
  mock = await startMock();
  anthropicMock = await startAnthropicMock();
  const mockUrl = `http://127.0.0.1:${(mock.address() as AddressInfo).port}`;
  gw = await startTestGateway({
    env: {
      OPENAI_API_KEY: 'sk-openai-upstream',
      OPENAI_BASE_URL: `${mockUrl}/v1`,
      ANTHROPIC_API_KEY: 'sk-ant-upstream',
      ANTHROPIC_BASE_URL: `http://127.0.0.1:${(anthropicMock.address() as AddressInfo).port}`,
    },
    overrides: {
      adapters: { 'openai-compatible': createOpenAICompatibleAdapter(), anthropic: createAnthropicAdapter() },
    },
  });
  home = mkdtempSync(join(tmpdir(), 'modelgate-claude-home-'));
});
afterAll(async () => {
  await gw?.close();
  await new Promise((resolve) => mock?.close(resolve));
  await new Promise((resolve) => anthropicMock?.close(resolve));
  if (home) rmSync(home, { recursive: true, force: true });
});

function runClaude(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      CLAUDE,
      ['-p', 'What does the mock upstream say?'],
      {
        env: {
          PATH: process.env.PATH ?? '',
          HOME: home,
          XDG_CONFIG_HOME: join(home, '.config'),
          CLAUDE_CONFIG_DIR: join(home, '.claude'),
          CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
          DISABLE_AUTOUPDATER: '1',
          DISABLE_TELEMETRY: '1',
          DISABLE_ERROR_REPORTING: '1',
          ...env,
        },
        cwd: home,
        timeout: 120_000,
      },
      (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
    // No piped prompt: without this, `claude -p` waits 3 s for stdin before it starts.
    child.stdin?.end();
  });
}

describe('Claude Code headless against the Messages door', () => {
  it("prints the mock upstream's answer, served through /v1/messages with an openai/ model", async () => {
    const user = await gw.createUser();
    await gw.grant(user.userId, 10);
    const run = await runClaude({
      ANTHROPIC_BASE_URL: `${gw.url}/api`,
      ANTHROPIC_AUTH_TOKEN: user.key,
      ANTHROPIC_MODEL: 'openai/gpt-5.4-mini',
      ANTHROPIC_DEFAULT_HAIKU_MODEL: 'openai/gpt-5.4-mini',
    });
    if (!run.stdout.includes(ANSWER)) {
      console.log('claude exit', run.code, '\nstdout:', run.stdout, '\nstderr:', run.stderr.slice(-3000));
      console.log(
        gw.logs
          .filter((l) => l.includes('"request"') || l.includes('error'))
          .slice(-30)
          .join('\n'),
      );
    }
    expect(run.stdout).toContain(ANSWER);
    expect(upstreamBodies.length).toBeGreaterThan(0);
    expect(upstreamBodies.some((body) => body.model === 'gpt-5.4-mini')).toBe(true);
    // What Claude Code sent, as the gateway logged it: a HEAD probe of the base URL, then POST /v1/messages?beta=true.
    const served = gw.logs
      .filter((l) => l.includes('"path":"/api/v1/messages"'))
      .map((l) => JSON.parse(l) as { status: number });
    expect(served.length).toBeGreaterThan(0);
    expect(served.every((entry) => entry.status === 200)).toBe(true);
  }, 180_000);

  it("with a bare Claude name: native Anthropic upstream, cache_control and Claude Code's beta header passed through", async () => {
    const user = await gw.createUser();
    await gw.grant(user.userId, 10);
    const run = await runClaude({
      ANTHROPIC_BASE_URL: `${gw.url}/api`,
      ANTHROPIC_AUTH_TOKEN: user.key,
      ANTHROPIC_MODEL: 'claude-sonnet-5-5',
      ANTHROPIC_DEFAULT_HAIKU_MODEL: 'claude-haiku-5-5',
    });
    if (!run.stdout.includes(ANSWER))
      console.log('claude exit', run.code, '\nstdout:', run.stdout, '\nstderr:', run.stderr.slice(-3000));
    expect(run.stdout).toContain(ANSWER);
    const main = anthropicBodies.find((r) => r.path === '/v1/messages' && r.body.model === 'claude-sonnet-5-5');
    expect(main).toBeDefined();
    expect(main!.headers['x-api-key']).toBe('sk-ant-upstream');
    expect(String(main!.headers['anthropic-beta'] ?? '')).not.toBe('');
    expect(JSON.stringify(main!.body.messages)).toContain('"cache_control"');
  }, 180_000);
});
