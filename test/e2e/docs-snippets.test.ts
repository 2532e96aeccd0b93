// The SDK examples of README.md and docs/ run as written: every TypeScript block that uses the official `openai` or
// `@anthropic-ai/sdk` package is saved as a module and run in a process of its own, with only MODELGATE_API_KEY set
// (the one name every example reads its key from) and the example's http://127.0.0.1:8080 pointing at a gateway in
// front of local stand-ins for OpenAI and Anthropic. docs/embeddings.md once read process.env.MODELGATE_KEY while
// docs/clients.md exported MODELGATE_API_KEY: the example failed with "Missing credentials".
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { startMockUpstreamServer, type MockUpstreamServer } from '../../src/conformance/mock-upstream-server.js';
import { RecordedUpstream } from '../compat/upstream/recorded-upstream.js';

const FILES = [
  'README.md',
  ...readdirSync('docs')
    .filter((name) => name.endsWith('.md'))
    .map((name) => join('docs', name)),
];
const SDKS = /from ['"](openai|@anthropic-ai\/sdk)['"]/;
// Inside the test kit's folder, so the examples' imports resolve from its node_modules (where openai and
// @anthropic-ai/sdk are) as a reader's project would.
const WORK = join('test', '.test-data', 'doc-snippets');

interface Snippet {
  where: string;
  code: string;
}

function snippets(): Snippet[] {
  return FILES.flatMap((file) => {
    const text = readFileSync(file, 'utf8');
    return [...text.matchAll(/^```(?:ts|typescript|js|javascript|mjs)\n([\s\S]*?)^```/gm)]
      .filter((block) => SDKS.test(block[1]!))
      .map((block) => ({ where: `${file}:${text.slice(0, block.index).split('\n').length}`, code: block[1]! }));
  });
}

const SNIPPETS = snippets();

let gw: TestGateway;
let openai: MockUpstreamServer;
let anthropic: RecordedUpstream;
let key: string;

beforeAll(async () => {
  openai = await startMockUpstreamServer();
  anthropic = await new RecordedUpstream().start();
  gw = await startTestGateway({
    env: {
      OPENAI_API_KEY: 'sk-docs',
      OPENAI_BASE_URL: `${openai.url}/v1`,
      ANTHROPIC_API_KEY: 'sk-ant-docs',
      ANTHROPIC_BASE_URL: anthropic.base('anthropic'),
    },
  });
  const user = await gw.createUser();
  await gw.grant(user.userId, 50);
  key = user.key;
  mkdirSync(WORK, { recursive: true });
});
afterAll(async () => {
  await gw?.close();
  await openai?.close();
  await anthropic?.close();
  rmSync(WORK, { recursive: true, force: true });
});

function run(file: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', file], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (data) => (out += String(data)));
    child.stderr.on('data', (data) => (err += String(data)));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, out, err }));
  });
}

describe("the docs' SDK examples", () => {
  it('are found: the OpenAI SDK (chat, Responses, embeddings) and the Anthropic SDK', () => {
    const all = SNIPPETS.map((s) => s.code).join('\n');
    expect(SNIPPETS.length).toBeGreaterThanOrEqual(3);
    for (const call of ['chat.completions.create', 'responses.create', 'embeddings.create', 'messages.create'])
      expect(all).toContain(call);
  });

  it('every one reads its key from MODELGATE_API_KEY, and no other variable', () => {
    for (const { where, code } of SNIPPETS) {
      expect(
        [...code.matchAll(/process\.env\.([A-Za-z_]+)/g)].map((m) => m[1]),
        where,
      ).toEqual(expect.arrayContaining(['MODELGATE_API_KEY']));
      expect([...new Set([...code.matchAll(/process\.env\.([A-Za-z_]+)/g)].map((m) => m[1]))], where).toEqual([
        'MODELGATE_API_KEY',
      ]);
    }
  });

  it.each(SNIPPETS)('$where runs against the gateway with MODELGATE_API_KEY set', async ({ where, code }) => {
    const source = code.replaceAll('http://127.0.0.1:8080', gw.url);
    expect(source, `${where} names the gateway at http://127.0.0.1:8080`).not.toBe(code);
    const file = join(WORK, `${where.replace(/[^a-z0-9]+/gi, '-')}.mts`);
    writeFileSync(file, source);
    const result = await run(file, { PATH: process.env.PATH, HOME: process.env.HOME, MODELGATE_API_KEY: key });
    expect({ code: result.code, err: result.err }, where).toEqual({ code: 0, err: '' });
  });
});
