// The whole kit against Modelgate (the in-process gateway in front of the conformance mock upstream), default profile:
// every operation is implemented, every check runs — the new ones included (405 + Allow, chat stream framing, the
// mid-stream error trigger through the mock upstream) — and every one passes. The JUnit form of the same report is
// checked here too. Per-operation depth is in operations.test.ts and chat-completions.test.ts.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runConformance } from '../../src/conformance/runner.js';
import { formatReport } from '../../src/conformance/report.js';
import { junitReport } from '../../src/conformance/junit-report.js';
import { CHECK_NAMES } from '../../src/conformance/response-checks.js';
import { MID_STREAM_ERROR_TRIGGER } from '../../src/conformance/mock-upstream-server.js';
import { loadDocument } from '../../src/conformance/openapi-document.js';
import {
  SERVED_MODEL,
  TEST_TIMEOUT_MS,
  startContractGateway,
  type ContractGateway,
} from './helpers/contract-gateway.js';

let target: ContractGateway;
beforeAll(async () => {
  target = await startContractGateway();
});
afterAll(async () => {
  await target?.close();
});

it(
  'Modelgate passes every check of the modelgate profile',
  async () => {
    const account = await target.gw.createUser();
    await target.gw.grant(account.userId, 5);
    const token = await target.gw.createToken(account.userId);
    const report = await runConformance({
      baseUrl: target.gw.url,
      apiKey: account.key,
      managementKey: token,
      runs: 6,
      seed: 20261123,
      // Bounded by the run counts; the time limit is only a backstop.
      timeLimitMs: 60_000,
      sequenceRuns: 3,
      maxCommands: 6,
      model: SERVED_MODEL,
      addCredits: (usd) => target.gw.grant(account.userId, usd),
      midStreamErrorPrompt: MID_STREAM_ERROR_TRIGGER,
    });
    const text = formatReport(report);
    expect(report.ok, text).toBe(true);
    expect(report.profile).toBe('modelgate');
    // Nothing skipped, nothing "not implemented": every check ran and passed on every operation of the document.
    expect(
      report.results.filter((r) => r.outcome !== 'passed'),
      text,
    ).toEqual([]);
    expect(new Set(report.results.map((r) => r.check))).toEqual(new Set(CHECK_NAMES));
    const doc = await loadDocument();
    const routes = report.results.filter((r) => r.check === 'route_implemented').map((r) => r.target);
    expect(routes).toHaveLength(doc.operations.length);
    expect(
      report.results.find((r) => r.check === 'mid_stream_error' && r.target.endsWith('[mid-stream error trigger]'))
        ?.outcome,
    ).toBe('passed');
    expect(report.results.filter((r) => r.check === 'unsupported_method').map((r) => r.target)).toContain(
      'PUT, PATCH, DELETE /api-keys',
    );
    const xml = junitReport(report);
    expect(xml).toContain(`failures="0" errors="0" skipped="0"`);
    expect(xml).not.toContain(account.key);
    expect(xml).not.toContain(token);
  },
  TEST_TIMEOUT_MS * 2,
);
