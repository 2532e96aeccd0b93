// The kit against implementations other than Modelgate: a server with only the core profile's routes
// (helpers/core-server.ts) passes `--profile core`, and under `--profile modelgate` its missing extensions are
// reported as not implemented (not failed, no abort); the same server with planted faults has every fault reported
// under the check named for it, on the operation that has it, and nothing else.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConformance, type RunnerOptions } from '../../src/conformance/runner.js';
import { formatReport, type ConformanceReport } from '../../src/conformance/report.js';
import { CORE_OPERATIONS } from '../../src/conformance/profiles.js';
import { loadDocument } from '../../src/conformance/openapi-document.js';
import { CORE_SERVER_TRIGGER, startCoreServer, type CoreServer, type CoreServerFaults } from './helpers/core-server.js';

const doc = await loadDocument();
const extensions = doc.operations.map((op) => op.operationId).filter((id) => !CORE_OPERATIONS.includes(id));
// The run count bounds every property; the time limit is only a backstop, so a loaded machine changes nothing.
const bounds = {
  runs: 10,
  seed: 7,
  timeLimitMs: 60_000,
  sequenceRuns: 4,
  maxCommands: 8,
  model: 'any/model',
  midStreamErrorPrompt: CORE_SERVER_TRIGGER,
};

async function run(
  server: CoreServer,
  options: Partial<RunnerOptions>,
): Promise<{ report: ConformanceReport; text: string }> {
  const report = await runConformance({ baseUrl: server.url, apiKey: server.apiKey, ...bounds, ...options });
  const text = formatReport(report);
  expect(text).not.toContain(server.apiKey);
  return { report, text };
}

describe('a core-only implementation', () => {
  let server: CoreServer;
  beforeAll(async () => {
    server = await startCoreServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('--profile core: every check passes, nothing is skipped', async () => {
    const { report, text } = await run(server, { profile: 'core' });
    expect(report.ok, text).toBe(true);
    // The credits sequence needs an extension (GET /credits) and a hook; everything else ran and passed.
    expect(
      report.results.filter((r) => r.outcome !== 'passed').map((r) => r.check),
      text,
    ).toEqual(['stateful_credits']);
    expect(
      report.results
        .filter((r) => r.check === 'route_implemented')
        .map((r) => r.target.match(/\((\w+)\)/)![1])
        .sort(),
    ).toEqual([...CORE_OPERATIONS].sort());
    for (const check of [
      'stream_framing',
      'mid_stream_error',
      'unsupported_method',
      'stateful_keys',
      'use_after_free',
      'negative_data_rejection',
      'ignored_auth',
    ]) {
      expect(
        report.results.some((r) => r.check === check && r.outcome === 'passed'),
        check,
      ).toBe(true);
    }
  }, 120_000);

  it('--profile modelgate: the extensions are reported as not implemented, the run still passes', async () => {
    const { report, text } = await run(server, { profile: 'modelgate' });
    const absent = report.results.filter((r) => r.outcome === 'not_implemented');
    expect(absent.map((r) => r.target.match(/\((\w+)\)/)![1]).sort()).toEqual([...extensions].sort());
    expect(absent.every((r) => r.check === 'route_implemented')).toBe(true);
    for (const id of extensions) expect(text).toMatch(new RegExp(`not implemented: \\w+ \\S+ \\(${id}\\)`));
    expect(text).toContain(`${extensions.length} extension operation(s) not implemented`);
    expect(report.ok, text).toBe(true);
    // No property ran on an absent operation.
    expect(
      report.results.filter(
        (r) => r.check !== 'route_implemented' && extensions.some((id) => r.target.includes(`(${id})`)),
      ),
    ).toEqual([]);
  }, 120_000);

  it('without /models and without --model: says so once and skips only what needs a model', async () => {
    const lines: string[] = [];
    const { report, text } = await run(server, {
      profile: 'core',
      model: undefined,
      parts: { properties: ['valid'], keys: false, credits: false },
      log: (l) => lines.push(l),
    });
    expect(lines.filter((l) => l.startsWith('no model for valid requests'))).toHaveLength(1);
    expect(text.match(/no model for valid requests/g)).toHaveLength(2); // chat [valid inputs] and the mid-stream trigger
    expect(report.ok, text).toBe(true);
    const skipped = report.results.filter((r) => r.outcome === 'skipped');
    expect(new Set(skipped.map((r) => r.target))).toEqual(
      new Set([
        'POST /chat/completions (createChatCompletion) [valid inputs]',
        'POST /chat/completions (createChatCompletion) [mid-stream error trigger]',
      ]),
    );
    expect(
      report.results.some((r) => r.target === 'GET /api-keys (listApiKeys) [valid inputs]' && r.outcome === 'passed'),
    ).toBe(true);
  }, 120_000);
});

describe('a deliberately broken implementation', () => {
  // Each planted fault → the check (and operation) that must report it. Nothing else may fail.
  const planted: { fault: keyof CoreServerFaults; check: string; target: RegExp }[] = [
    { fault: 'goneInsteadOfNotFound', check: 'status_code_conformance', target: /deleteApiKey|API key lifecycle/ },
    { fault: 'noAllowHeader', check: 'unsupported_method', target: /\/(chat\/completions|api-keys)/ },
    { fault: 'streamWithoutRole', check: 'stream_framing', target: /createChatCompletion/ },
    { fault: 'numericCreatedAt', check: 'response_schema_conformance', target: /listApiKeys|API key lifecycle/ },
    { fault: 'serverErrorOnJunk', check: 'not_a_server_error', target: /createChatCompletion\) \[invalid inputs\]/ },
    { fault: 'bareErrorChunk', check: 'mid_stream_error', target: /mid-stream error trigger/ },
  ];

  it('reports every planted fault under its check, and nothing else', async () => {
    const server = await startCoreServer(Object.fromEntries(planted.map((p) => [p.fault, true])));
    try {
      const { report, text } = await run(server, { profile: 'core', runs: 20 });
      expect(report.ok).toBe(false);
      const failed = report.results.filter((r) => r.outcome === 'failed');
      expect(new Set(failed.map((r) => r.check)), text).toEqual(new Set(planted.map((p) => p.check)));
      for (const result of failed) {
        const p = planted.find((x) => x.check === result.check)!;
        expect(result.target, `${result.check}: ${text}`).toMatch(p.target);
        // Every failure comes with the request that shows it and the shrunk input.
        expect(result.counterexample?.curl).toMatch(/^curl -sS -i -N -X [A-Z]+ 'http:\/\/127\.0\.0\.1:\d+\/api\/v1\//);
        expect(result.counterexample?.description).toBeTruthy();
      }
      const junk = failed.find((r) => r.check === 'not_a_server_error')!.counterexample!;
      expect(junk.description).toMatch(/^malformed JSON/);
      expect(junk.status).toBe(500);
      expect(failed.find((r) => r.check === 'unsupported_method')!.counterexample!.message).toBe(
        '405 without an Allow header',
      );
      expect(text).toContain(`FAILED: ${planted.length} of`);
    } finally {
      await server.close();
    }
  }, 180_000);

  it.each(planted)(
    '$fault alone → $check only',
    async ({ fault, check }) => {
      const server = await startCoreServer({ [fault]: true });
      try {
        const { report, text } = await run(server, { profile: 'core', runs: 8 });
        expect([...new Set(report.results.filter((r) => r.outcome === 'failed').map((r) => r.check))], text).toEqual([
          check,
        ]);
      } finally {
        await server.close();
      }
    },
    120_000,
  );
});
