// Claude Code's gateway model discovery with the real binary (npm @anthropic-ai/claude-code): with
// CLAUDE_CODE_ENABLE_GATEWAY_MODEL_DISCOVERY=1 it asks GET {ANTHROPIC_BASE_URL}/v1/models?limit=1000 (Bearer or
// x-api-key, anthropic-version 2023-06-01), keeps the ids starting with claude/anthropic and caches them in
// <config dir>/cache/gateway-models.json for its /model picker. Headless `claude -p` against the gateway, a mock
// Anthropic upstream on loopback, a throwaway HOME. (CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC turns discovery off,
// so this run leaves it unset and switches telemetry, updates and error reports off one by one.)
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createAnthropicAdapter } from '../../src/providers/anthropic/index.js';
import { createOpenAICompatibleAdapter } from '../../src/providers/openai-compatible/index.js';
import { clientBinary } from '../compat/client-packages.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';

const CLAUDE = clientBinary('claude');
const ANSWER = 'Hi from the mock.';

let gw: TestGateway;
let upstream: Server;
let home: string;

/** A native Anthropic upstream answering every message with ANSWER (SSE or JSON as asked). */
function startAnthropicMock(): Promise<Server> {
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      const body = raw ? (JSON.parse(raw) as Record<string, any>) : {};
      res.writeHead(200, { 'content-type': body.stream ? 'text/event-stream' : 'application/json' });
      if (req.url?.endsWith('/count_tokens')) return res.end(JSON.stringify({ input_tokens: 10 }));
      const usage = { input_tokens: 12, output_tokens: 5 };
      const message = {
        id: 'msg_discovery',
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
            usage: { output_tokens: 5 },
          }) +
          event('message_stop', {}),
      );
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

beforeAll(async () => {
  upstream = await startAnthropicMock();
  gw = await startTestGateway({
    env: {
      ANTHROPIC_API_KEY: 'sk-ant-upstream',
      ANTHROPIC_BASE_URL: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`,
    },
    overrides: {
      adapters: { 'openai-compatible': createOpenAICompatibleAdapter(), anthropic: createAnthropicAdapter() },
    },
  });
  home = mkdtempSync(join(tmpdir(), 'modelgate-claude-discovery-'));
});
afterAll(async () => {
  await gw?.close();
  await new Promise((resolve) => upstream?.close(resolve));
  if (home) rmSync(home, { recursive: true, force: true });
});

function runClaude(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      CLAUDE,
      ['-p', 'say hi'],
      {
        env: {
          PATH: process.env.PATH ?? '',
          HOME: home,
          XDG_CONFIG_HOME: join(home, '.config'),
          CLAUDE_CONFIG_DIR: join(home, '.claude'),
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
    // `< /dev/null`: without it, `claude -p` waits 3 s for a piped prompt.
    child.stdin?.end();
  });
}

it("claude -p caches the catalog's Claude models, newest first, from GET /v1/models", async () => {
  const user = await gw.createUser();
  await gw.grant(user.userId, 5);
  const baseUrl = `${gw.url}/api`;
  const run = await runClaude({
    CLAUDE_CODE_ENABLE_GATEWAY_MODEL_DISCOVERY: '1',
    ANTHROPIC_BASE_URL: baseUrl,
    ANTHROPIC_AUTH_TOKEN: user.key,
    ANTHROPIC_MODEL: 'anthropic/claude-haiku-5-5',
  });
  const cacheFile = join(home, '.claude', 'cache', 'gateway-models.json');
  if (!existsSync(cacheFile)) {
    console.log('claude exit', run.code, '\nstdout:', run.stdout, '\nstderr:', run.stderr.slice(-3000));
    console.log(
      gw.logs
        .filter((l) => l.includes('"request"'))
        .slice(-20)
        .join('\n'),
    );
  }
  expect(run.stdout).toContain(ANSWER);
  // What Claude Code asked, as the gateway logged it: the listing, answered 200.
  const listed = gw.logs
    .map((l) => JSON.parse(l) as { path?: string; status?: number })
    .filter((entry) => entry.path === '/api/v1/models');
  expect(listed.map((entry) => entry.status)).toContain(200);

  const cached = JSON.parse(readFileSync(cacheFile, 'utf8')) as {
    baseUrl: string;
    models: Array<{ id: string; display_name?: string }>;
  };
  expect(cached.baseUrl).toBe(baseUrl);
  // Aliases with Claude names (the bare ones) are listed and kept too.
  const claudeModels = gw.parts.catalog
    .listed()
    .filter((entry) => /^(claude|anthropic)/i.test(entry.id))
    .map((entry, index) => ({ entry, index }))
    .sort((a, b) => b.entry.created - a.entry.created || a.index - b.index)
    .map(({ entry }) => ({ id: entry.id, display_name: entry.name }));
  expect(claudeModels.length).toBeGreaterThan(1);
  expect(cached.models.map(({ id, display_name }) => ({ id, display_name }))).toEqual(claudeModels);
}, 180_000);
