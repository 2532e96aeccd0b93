// The real client: Codex CLI (npm @openai/codex) run headless with `codex exec`, its model provider pointed at the
// gateway (wire_api = "responses"), the gateway in front of a mock OpenAI-compatible upstream. Codex must print the
// mock's answer. Nothing leaves loopback: a dead proxy takes every non-loopback connection Codex might try.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { MockUpstream, openAiSse } from '../helpers/mock-upstream.js';

const CODEX = join(process.cwd(), 'node_modules/.bin/codex');
let gw: TestGateway;
let upstream: MockUpstream;
let key: string;
let home: string;

beforeAll(async () => {
  upstream = await new MockUpstream().start();
  gw = await startTestGateway({
    env: { MODELGATE_CATALOG: 'test/fixtures/catalog/test-catalog.json', OPENAI_API_KEY: 'sk-up', OPENAI_BASE_URL: `${upstream.url}/v1` },
  });
  const user = await gw.createUser();
  await gw.grant(user.userId, 5);
  key = user.key;
  home = mkdtempSync(join(tmpdir(), 'modelgate-codex-'));
  // The README's provider block, plus what a headless test needs: no approvals, no built-in tools the gateway
  // answers 400 for (web_search, the multi-agent namespace), no update check, no analytics.
  writeFileSync(join(home, 'config.toml'), `
model = "openai/gpt-test"
model_provider = "modelgate"
approval_policy = "never"
sandbox_mode = "read-only"
web_search = "disabled"
check_for_update_on_startup = false

[features]
multi_agent = false

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
beforeEach(() => upstream.reset());

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

const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
  id: 'chatcmpl-codex', object: 'chat.completion.chunk', created: 1, model: 'gpt-test-2026', choices: [{ index: 0, delta, finish_reason: finish }],
});

describe('Codex CLI through the Responses front door', () => {
  it('codex exec prints the answer of the mock upstream', async () => {
    upstream.always({
      kind: 'sse',
      chunks: openAiSse([
        chunk({ role: 'assistant', content: '' }), chunk({ content: 'Hello from the ' }), chunk({ content: 'modelgate mock.' }), chunk({}, 'stop'),
        { ...chunk({}), choices: [], usage: { prompt_tokens: 900, completion_tokens: 6, total_tokens: 906 } },
      ]),
    });
    const run = await codexExec('Say hello');
    expect(run.stdout + run.stderr).toContain('Hello from the modelgate mock.');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Hello from the modelgate mock.');
    // Codex's request reached the upstream as chat completions: its developer instructions and the prompt.
    const sent = upstream.requests.find((request) => request.path === '/v1/chat/completions');
    expect(sent?.body.model).toBe('gpt-test-2026');
    expect(sent?.body.messages.some((m: { role: string }) => m.role === 'developer' || m.role === 'system')).toBe(true);
    expect(JSON.stringify(sent?.body.messages.at(-1))).toContain('Say hello');
    await gw.settled();
    const rows = await gw.deps.db.selectFrom('generations').select(['api_format', 'streamed', 'status']).execute();
    expect(rows).toContainEqual({ api_format: 'responses', streamed: true, status: 'success' });
  }, 120_000);
});
