// Codex CLI (npm @openai/codex 0.169) on a config holding only the provider block docs/clients.md shows, no
// workaround lines (issue 37 §5): it sends its default tool set (custom apply_patch, tool_search, web_search, the
// multi_agent_v1 namespace) and one turn must answer on an OpenAI, an Anthropic, a Gemini and a pass/ model. On
// openai/gpt-5.5 it applies a patch with its freeform apply_patch: the file is written, and the next turn carries the
// tool's output to the upstream. On Claude, its namespace and web search reach Anthropic as Claude's own tools. The gateway runs in front of the recorded upstream of test/compat, loopback only.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codex } from '../compat/clients/codex.js';
import { FAMILIES, runCell, runClientTurn } from '../compat/cells.js';
import { startGatewayUnderTest, type GatewayUnderTest } from '../compat/gateway-under-test.js';
import { readTurn } from '../compat/upstream/read-turn.js';
import { RecordedUpstream } from '../compat/upstream/recorded-upstream.js';
import { PATCH_MARKER, RESULT_PREFIX } from '../compat/upstream/script.js';

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

describe('Codex with only the provider block', () => {
  for (const familyId of ['openai', 'anthropic', 'gemini', 'pass']) {
    const family = FAMILIES.find((f) => f.id === familyId)!;
    it(`answers one turn on ${family.model}`, async () => {
      const result = await runCell(codex, family, 'plain', gateway, upstream);
      expect(result.detail).toBe('');
      const requests = upstream.find(family.upstream, result.cell);
      expect(requests.length).toBeGreaterThan(0);
      if (familyId === 'anthropic') {
        // Codex's default tools reach Claude as Claude's own: the multi_agent_v1 namespace's members flattened under
        // Anthropic's name rules, web search as Anthropic's server tool.
        const tools: { type?: string; name: string }[] = requests[0].body.tools;
        const names = tools.map((tool) => tool.name);
        expect(names).toContain('exec_command');
        expect(names.some((name) => name.startsWith('multi_agent_v1__'))).toBe(true);
        expect(tools).toContainEqual(expect.objectContaining({ type: 'web_search_20250305', name: 'web_search' }));
        for (const name of names) expect(name).toMatch(/^[a-zA-Z0-9_-]{1,128}$/);
      }
    }, 120_000);
  }

  it('applies a patch with its freeform apply_patch on openai/gpt-5.5; the next turn carries the output', async () => {
    const cell = `cell-codex-patch-${randomBytes(3).toString('hex')}`;
    const line = `compat-token-${randomBytes(4).toString('hex')}`;
    let written: string | undefined;
    const run = await runClientTurn(codex, 'openai/gpt-5.5', gateway, {
      prompt: () => `${PATCH_MARKER} hello.txt ${line} (${cell})`,
      // Writing files needs a sandbox that allows it: Codex's default for `exec` is read-only.
      extraArgs: ['--sandbox', 'workspace-write'],
      inspect: ({ workspace }) => {
        try {
          written = readFileSync(join(workspace, 'hello.txt'), 'utf8');
        } catch {
          written = undefined;
        }
      },
    });
    expect(run.outcome.error).toBeUndefined();
    expect(written).toBe(`${line}\n`);
    const requests = upstream.find('openai', cell).filter((request) => request.protocol);
    const turns = requests.map((request) => readTurn(request.protocol!, request.body, request.path));
    // Freeform where the upstream speaks Responses, a function of one string where the gateway translates.
    expect(turns[0].tools).toContainEqual(expect.objectContaining({ name: 'apply_patch' }));
    const answered = turns.find((turn) => turn.toolResults !== undefined);
    expect(answered?.toolResults).toContain('hello.txt');
    expect(run.outcome.answer).toContain(RESULT_PREFIX);
  }, 120_000);
});
