// The cheapest cell of the compatibility matrix for every client, in `make test`: a plain turn on the family whose
// protocol the client speaks (Claude Code on Anthropic, Codex on OpenAI, Gemini CLI on Gemini, the Chat Completions
// clients on DeepSeek), so a regression that breaks any client fails CI. A client that has a default model the
// gateway must know by its bare name (Gemini CLI) runs on that default, and no request of its session may be a 404. The whole matrix is `make compatibility`
// (test/compat/run-matrix.ts), which writes docs/compatibility.md.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENTS } from './clients/index.js';
import { FAMILIES, runCell, type Turn } from './cells.js';
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
    const family = FAMILIES.find((f) => f.id === (client.defaultFamily ?? CHEAPEST_FAMILY[client.id]))!;
    const turn: Turn = client.defaultFamily ? 'defaults' : 'plain';
    it(`${client.name} on ${turn === 'defaults' ? 'its default model' : family.model}`, async () => {
      const result = await runCell(client, family, turn, gateway, upstream, { timeoutMs: 150_000 });
      expect(result.detail).toBe('');
      expect(result.ok).toBe(true);
      expect(upstream.find(family.upstream, result.cell).length).toBeGreaterThan(0);
    }, 180_000);
  }
});
