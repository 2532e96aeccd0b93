// Codex CLI (npm @openai/codex 0.169) on the provider block docs/clients.md shows, which turns WebSocket mode on: every
// turn of a multi-turn tool task (apply_patch — its freeform tool on gpt-5.5, through the shell elsewhere — then a
// shell read of a file) runs over a Responses WebSocket to the gateway, no POST /responses at all, on an OpenAI, an
// Anthropic and a Gemini model. After its first turn Codex sends only what is new (previous_response_id and the tool's
// output), and the gateway gives the model the whole conversation from the socket's memory.
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runClientTurn } from '../compat/cells.js';
import { codex } from '../compat/clients/codex.js';
import { startGatewayUnderTest, type GatewayUnderTest } from '../compat/gateway-under-test.js';
import { readTurn } from '../compat/upstream/read-turn.js';
import { RecordedUpstream, type FamilyPrefix } from '../compat/upstream/recorded-upstream.js';
import { PATCH_MARKER, READ_MARKER, RESULT_PREFIX } from '../compat/upstream/script.js';

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

interface LogLine {
  msg: string;
  method?: string;
  path?: string;
  continued?: boolean;
  input_items?: number;
  warm_up?: boolean;
  error?: number;
}

const FAMILIES: { model: string; upstream: FamilyPrefix }[] = [
  { model: 'openai/gpt-5.5', upstream: 'openai' },
  { model: 'anthropic/claude-sonnet-5-5', upstream: 'anthropic' },
  { model: 'google/gemini-3.5-flash', upstream: 'google' },
];

describe('Codex over WebSocket mode', () => {
  for (const family of FAMILIES) {
    it(`patches a file and reads another with ${family.model}, every turn on the socket`, async () => {
      const cell = `cell-codex-ws-${randomBytes(3).toString('hex')}`;
      const token = `compat-token-${randomBytes(4).toString('hex')}`;
      const line = `patched-${randomBytes(4).toString('hex')}`;
      let written: string | undefined;
      const from = gateway.logs.length;
      const run = await runClientTurn(codex, family.model, gateway, {
        prompt: ({ workspace }) => {
          const notes = join(workspace, 'notes.txt');
          writeFileSync(notes, `${token}\n`);
          return `${PATCH_MARKER} hello.txt ${line} then ${READ_MARKER} ${notes} (${cell})`;
        },
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
      expect(run.outcome.error, run.stderr.slice(-2000)).toBeUndefined();
      expect(run.outcome.answer).toContain(`${RESULT_PREFIX} ${token}`);
      expect(written).toBe(`${line}\n`);

      const logs = gateway.logs.slice(from).map((text) => JSON.parse(text) as LogLine);
      // The socket carried the task: no POST /responses (no fallback to HTTP).
      expect(logs.some((entry) => entry.msg === 'websocket opened')).toBe(true);
      expect(logs.filter((entry) => entry.msg === 'request' && entry.path === '/api/v1/responses')).toEqual([]);
      const turns = logs.filter((entry) => entry.msg === 'websocket turn' && !entry.warm_up);
      expect(turns.every((turn) => turn.error === undefined)).toBe(true);
      // Three model turns: the patch, the read, the answer; each after the first sent only its new items.
      expect(turns.length).toBeGreaterThanOrEqual(3);
      for (const turn of turns.slice(1)) {
        expect(turn.continued).toBe(true);
        expect(turn.input_items).toBeLessThan(turns[0].input_items!);
      }
      // The model still saw the whole conversation: the last request carries the read's result and the patch's call.
      const requests = upstream.find(family.upstream, cell).filter((request) => request.protocol);
      const last = requests.at(-1)!;
      const view = readTurn(last.protocol!, last.body, last.path);
      expect(view.toolResults).toContain(token);
      expect(view.conversation).toContain(line);
    }, 240_000);
  }
});
