// The lanes comparison's requests and checks (bench/lib/agent-requests.ts, lane-comparison.ts, report-lanes.ts): the
// agent-sized request is the size and shape the issue names in every protocol; the bench mock and the gateway (on the
// bench catalog, in-process) answer every row in the door's own shape, the native rows on the native lane; the bare
// proxy forwards every door; the report pairs rounds and leaves disturbed ones out.
import { mkdtempSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProcessGroup, freePort, waitForPort } from '../../bench/lib/processes.js';
import { AGENT_TOOL_COUNT, AGENT_TOOL_ROUNDS, doorPath, laneBody } from '../../bench/lib/agent-requests.js';
import { checkAnswer, LANES, REQUEST_SIZES, type LaneRow, type LaneRun } from '../../bench/lib/lane-comparison.js';
import { pairedRatio, renderLanesSection } from '../../bench/lib/report-lanes.js';
import { gatewayEnv } from '../../bench/lib/systems.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';

describe('bench: the agent-sized request', () => {
  it('is ~400 KB with 240 messages and 25 tools in chat completions, and the same conversation in Messages and Responses', () => {
    const chat = JSON.parse(laneBody('chat', 'agent', 'm')) as {
      messages: { role: string; tool_calls?: unknown[] }[];
      tools: unknown[];
    };
    expect(chat.messages.filter((m) => m.role !== 'system')).toHaveLength(240);
    expect(chat.tools).toHaveLength(AGENT_TOOL_COUNT);
    const messages = JSON.parse(laneBody('messages', 'agent', 'm')) as {
      messages: { role: string; content: { type: string }[] }[];
      tools: unknown[];
    };
    expect(messages.messages.map((m) => m.role)).toEqual(
      messages.messages.map((_, i) => (i % 2 === 0 ? 'user' : 'assistant')),
    );
    expect(messages.messages.flatMap((m) => m.content).filter((b) => b.type === 'tool_result')).toHaveLength(
      AGENT_TOOL_ROUNDS,
    );
    expect(messages.tools).toHaveLength(AGENT_TOOL_COUNT);
    const responses = JSON.parse(laneBody('responses', 'agent', 'm')) as {
      input: { type: string }[];
      tools: unknown[];
      store?: boolean;
    };
    expect(responses.input.filter((i) => i.type === 'function_call_output')).toHaveLength(AGENT_TOOL_ROUNDS);
    // The agent holds its state as Codex does; the small request leaves store at its default, so its turn is stored.
    expect(responses.store).toBe(false);
    expect(JSON.parse(laneBody('responses', 'small', 'm'))).not.toHaveProperty('store');
    expect(responses.tools).toHaveLength(AGENT_TOOL_COUNT);
    for (const door of ['chat', 'messages', 'responses'] as const) {
      const bytes = Buffer.byteLength(laneBody(door, 'agent', 'openai/gpt-test'));
      expect(bytes).toBeGreaterThan(380_000);
      expect(bytes).toBeLessThan(420_000);
      expect(Buffer.byteLength(laneBody(door, 'small', 'openai/gpt-test'))).toBeLessThan(1_000);
    }
  });
});

describe('bench: every lane row against the mock', () => {
  const group = new ProcessGroup();
  let gw: TestGateway;
  let key: string;
  let passthroughBase = '';
  // What reached the upstream from the gateway: a recorder in front of the mock.
  const upstream: { path: string; body: string }[] = [];
  let recorder: http.Server | undefined;

  beforeAll(async () => {
    const logDir = mkdtempSync(path.join(tmpdir(), 'bench-lanes-'));
    const mockPort = await freePort();
    const mock = group.start(
      'mock',
      process.execPath,
      ['--import', 'tsx', 'bench/mock-upstream.ts', String(mockPort)],
      { env: process.env, logFile: path.join(logDir, 'mock.log') },
    );
    await waitForPort(mockPort, mock, 'mock', 20_000);
    const ptPort = await freePort();
    const pt = group.start(
      'passthrough',
      process.execPath,
      ['--import', 'tsx', 'bench/passthrough.ts', String(ptPort)],
      {
        env: { ...process.env, UPSTREAM_BASE_URL: `http://127.0.0.1:${mockPort}/v1`, PASSTHROUGH_PARSE_BODY: '1' },
        logFile: path.join(logDir, 'passthrough.log'),
      },
    );
    await waitForPort(ptPort, pt, 'passthrough', 20_000);
    passthroughBase = `http://127.0.0.1:${ptPort}/v1`;
    recorder = http.createServer((req, res) => {
      const parts: Buffer[] = [];
      req.on('data', (part: Buffer) => parts.push(part));
      req.on('end', () => {
        const body = Buffer.concat(parts).toString('utf8');
        upstream.push({ path: req.url ?? '', body });
        void fetch(`http://127.0.0.1:${mockPort}${req.url}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        }).then(async (answer) => {
          res
            .writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' })
            .end(await answer.text());
        });
      });
    });
    await new Promise<void>((resolve) => recorder!.listen(0, '127.0.0.1', resolve));
    const recorderUrl = `http://127.0.0.1:${(recorder.address() as AddressInfo).port}/v1`;
    const { MODELGATE_CATALOG, ...bench } = gatewayEnv(
      { repoRoot: process.cwd(), distDir: 'dist', runDir: tmpdir() },
      'unused',
      recorderUrl,
    );
    const providers = Object.fromEntries(
      Object.entries(bench).filter(([name]) => /_(API_KEY|BASE_URL)$/.test(name)),
    ) as Record<string, string>;
    gw = await startTestGateway({ env: { MODELGATE_CATALOG: MODELGATE_CATALOG!, ...providers } });
    const user = await gw.createUser();
    await gw.grant(user.userId, 50);
    key = user.key;
  }, 60_000);
  afterAll(async () => {
    await gw?.close();
    recorder?.close();
    await group.stopAll();
  });

  it.each(LANES.flatMap((lane) => REQUEST_SIZES.map((size) => [lane.id, size, lane] as const)))(
    "%s, %s request: the gateway and the bare proxy answer in the door's shape, on the row's lane",
    async (_id, size, lane) => {
      upstream.length = 0;
      await checkAnswer(
        {
          name: 'modelgate',
          base: `${gw.url}/api/v1`,
          headers: { authorization: `Bearer ${key}` },
          model: (l) => l.gatewayModel,
        },
        lane,
        size,
      );
      expect(upstream).toHaveLength(1);
      // The native lane sends the client's request on with only the model's name changed (and the vendor's own rewrites:
      // OpenAI's chat takes max_completion_tokens, Responses gets store: false); the translated lane writes the other
      // protocol.
      const sent = JSON.parse(laneBody(lane.door, size, lane.upstreamModel)) as Record<string, unknown>;
      const received = JSON.parse(upstream[0].body) as Record<string, unknown>;
      if (lane.lane === 'native') {
        expect(upstream[0].path).toBe(`/v1${doorPath(lane.door)}`);
        const { max_tokens: maxTokens, ...rest } = sent;
        const expected = {
          chat: { ...rest, max_completion_tokens: maxTokens },
          messages: sent,
          responses: { ...sent, store: false },
        }[lane.door];
        expect(received).toEqual(expected);
      } else {
        expect(upstream[0].path).not.toBe(`/v1${doorPath(lane.door)}`);
      }
      await checkAnswer(
        {
          name: 'passthrough',
          base: passthroughBase,
          headers: { authorization: 'Bearer bench' },
          model: (l) => l.upstreamModel,
        },
        lane,
        size,
      );
    },
  );
});

describe('bench: the lanes report', () => {
  const run = (roundNo: number, rps: number, cpu: number, foreignPct = 0, failures = 0): LaneRun => ({
    round: roundNo,
    rps,
    p50: 1,
    cpuMsPerRequest: cpu,
    failures,
    machine: { busyPct: 90, foreignPct },
  });
  const row = (modelgate: LaneRun[], passthrough: LaneRun[]): LaneRow => ({
    lane: 'chat-openai',
    title: 'chat → OpenAI',
    kind: 'native',
    size: 'agent',
    bodyBytes: 400_000,
    passthrough,
    modelgate,
  });

  it('pairs the rounds and leaves out disturbed and failed ones while undisturbed ones exist', () => {
    const r = row(
      [run(1, 300, 3), run(2, 100, 9, 60), run(3, 350, 2.5), run(4, 10, 1, 0, 5)],
      [run(1, 600, 1.5), run(2, 600, 1.5), run(3, 700, 1.25), run(4, 600, 1.5)],
    );
    expect(pairedRatio(r, (x) => x.cpuMsPerRequest)).toEqual({
      median: 2,
      spread: [2, 2],
      spreadKind: 'min–max',
      rounds: 2,
      disturbedLeftOut: 1,
    });
    expect(pairedRatio(r, (x) => x.rps)?.median).toBe(0.5);
  });

  it('gives the 95% interval of the median from six rounds on, and renders one line per row', () => {
    const ratios = [1.5, 1.6, 1.7, 1.8, 1.9, 2.0];
    const r = row(
      ratios.map((k, i) => run(i + 1, 100, k)),
      ratios.map((_, i) => run(i + 1, 200, 1)),
    );
    expect(pairedRatio(r, (x) => x.cpuMsPerRequest)).toMatchObject({
      median: 1.75,
      spread: [1.5, 2],
      spreadKind: '95% CI',
      rounds: 6,
    });
    const markdown = renderLanesSection({
      rounds: 6,
      steadyStateSeconds: 3,
      warmupSeconds: 1,
      measureSeconds: 3,
      concurrency: 8,
      rows: [r],
    });
    expect(markdown).toContain(
      '| native | chat → OpenAI | agent | 390.6 KB | 1 (1–1) | 1.75 (1.5–2) | — | **1.75×** (1.5–2) | **0.5×** (0.5–0.5) |',
    );
    expect(markdown).toContain('median (95% CI)');
  });
});
