// The cheapest cell of the compatibility matrix for every client, in `make test`: a plain turn on the family whose
// protocol the client speaks (Claude Code on Anthropic, Codex on OpenAI, Gemini CLI on Gemini, the Chat Completions
// clients on DeepSeek), so a regression that breaks any client fails CI. The whole matrix is `make compatibility`
// (test/compat/run-matrix.ts), which writes docs/compatibility.md.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENTS } from './clients/index.js';
import { FAMILIES, runCell } from './cells.js';
import { startGatewayUnderTest, type GatewayUnderTest } from './gateway-under-test.js';
import { RecordedUpstream } from './upstream/recorded-upstream.js';

const CHEAPEST_FAMILY: Record<string, string> = {
  'claude-code': 'anthropic',
  codex: 'openai',
  'gemini-cli': 'gemini',
  opencode: 'deepseek',
  'qwen-code': 'deepseek',
  kilo: 'deepseek',
  cline: 'deepseek',
};

let upstream: RecordedUpstream;
let gateway: GatewayUnderTest;

beforeAll(async () => {
  upstream = await new RecordedUpstream().start();
  gateway = await startGatewayUnderTest(upstream);
});
afterAll(async () => {
  await gateway?.close();
  await upstream?.close();
});

describe('each real client answers a plain turn through the gateway', () => {
  for (const client of CLIENTS) {
    const family = FAMILIES.find((f) => f.id === CHEAPEST_FAMILY[client.id])!;
    it(`${client.name} on ${family.model}`, async () => {
      const result = await runCell(client, family, 'plain', gateway, upstream, { timeoutMs: 150_000 });
      expect(result.detail).toBe('');
      expect(result.ok).toBe(true);
      expect(upstream.find(family.upstream, result.cell).length).toBeGreaterThan(0);
    }, 180_000);
  }
});
