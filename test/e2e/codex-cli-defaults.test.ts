// The real client on its defaults: Codex CLI (npm @openai/codex 0.169) with its built-in tools left on (web search,
// the multi-agent namespace), pointed at the gateway, asking a Claude model (issue 37 §2). Codex does not know the
// model, so it sends its fallback tool set: function tools, the `multi_agent_v1` namespace and `web_search`. The
// gateway used to answer 400; now Claude gets the namespace's members as flattened functions and its own web search,
// and Codex prints the answer. Nothing leaves loopback: a dead proxy takes every other connection Codex might try.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { MockUpstream } from '../helpers/mock-upstream.js';

const CODEX = join(process.cwd(), 'node_modules/.bin/codex');
let gw: TestGateway;
let upstream: MockUpstream;
let key: string;
let home: string;

beforeAll(async () => {
  upstream = await new MockUpstream().start();
  gw = await startTestGateway({ env: { ANTHROPIC_API_KEY: 'sk-ant-up', ANTHROPIC_BASE_URL: upstream.url } });
  const user = await gw.createUser();
  await gw.grant(user.userId, 5);
  key = user.key;
  home = mkdtempSync(join(tmpdir(), 'modelgate-codex-defaults-'));
  // The README's provider block; only what a headless test needs besides (no approvals, no update check, no analytics).
  writeFileSync(join(home, 'config.toml'), `
model = "anthropic/claude-haiku-5-5"
model_provider = "modelgate"
approval_policy = "never"
sandbox_mode = "read-only"
check_for_update_on_startup = false

[analytics]
enabled = false

[model_providers.modelgate]
name = "Modelgate"
base_url = "${gw.url}/api/v1"
env_key = "MODELGATE_API_KEY"
wire_api = "responses"
request_max_retries = 0
stream_max_retries = 0
`);
});
afterAll(async () => {
  await gw?.close();
  await upstream?.close();
  if (home) rmSync(home, { recursive: true, force: true });
});

function codexExec(prompt: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const dead = 'http://127.0.0.1:9';
  const child = spawn(CODEX, ['exec', '--skip-git-repo-check', '--strict-config', '--color', 'never', prompt], {
    cwd: home,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      PATH: process.env.PATH ?? '', HOME: home, CODEX_HOME: home, MODELGATE_API_KEY: key,
      HTTP_PROXY: dead, HTTPS_PROXY: dead, ALL_PROXY: dead, http_proxy: dead, https_proxy: dead, all_proxy: dead,
      NO_PROXY: '127.0.0.1,localhost', no_proxy: '127.0.0.1,localhost',
    },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (data) => (stdout += data));
  child.stderr.on('data', (data) => (stderr += data));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const sse = (events: Array<Record<string, unknown>>) => events.map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);

describe('Codex CLI on its defaults, with a Claude model', () => {
  it('its web search and multi-agent namespace reach Claude as Claude\'s tools, and Codex prints the answer', async () => {
    upstream.always({
      kind: 'sse',
      chunks: sse([
        { type: 'message_start', message: { id: 'msg_codex', type: 'message', role: 'assistant', content: [], model: 'claude-haiku-5-5', usage: { input_tokens: 900, output_tokens: 1 } } },
        { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
        { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Claude answered through Modelgate.' } },
        { type: 'content_block_stop', index: 0 },
        { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 6 } },
        { type: 'message_stop' },
      ]),
    });
    const run = await codexExec('Say hello');
    expect(run.stdout, run.stderr).toContain('Claude answered through Modelgate.');
    expect(run.code).toBe(0);
    const sent = upstream.requests.find((request) => request.path === '/v1/messages')?.body;
    const names: string[] = sent.tools.map((tool: { name: string }) => tool.name);
    expect(names).toContain('exec_command');
    expect(names.some((name) => name.startsWith('multi_agent_v1__'))).toBe(true);
    expect(sent.tools).toContainEqual(expect.objectContaining({ type: 'web_search_20250305', name: 'web_search' }));
    for (const name of names) expect(name).toMatch(/^[a-zA-Z0-9_-]{1,128}$/);
  }, 120_000);
});
