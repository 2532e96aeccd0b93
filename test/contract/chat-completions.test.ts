// Bounded conformance run of POST /chat/completions against the in-process gateway and the conformance mock
// upstream: valid requests mostly name a served model and so run the whole pipeline (JSON and SSE, tool calls,
// metering); invalid and unauthenticated ones must be refused cleanly.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runConformance } from '../../src/conformance/runner.js';
import { formatReport } from '../../src/conformance/report.js';
import {
  BOUNDS,
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

it.each(['valid', 'invalid', 'unauthorized'] as const)(
  'createChatCompletion [%s inputs]',
  async (kind) => {
    const before = target.mock.requests;
    const report = await runConformance({
      baseUrl: target.gw.url,
      apiKey: target.user.key,
      ...BOUNDS,
      model: SERVED_MODEL,
      operations: ['createChatCompletion'],
      parts: { properties: [kind], keys: false, credits: false },
    });
    expect(report.ok, formatReport(report)).toBe(true);
    const reachedUpstream = target.mock.requests - before;
    // Valid inputs must mostly get past validation, model resolution and admission to the provider call; a bad
    // credential must never cost a provider call. (Some "invalid" inputs are schema-valid — a huge message — and may.)
    const runs = report.results.find((r) => r.check === 'not_a_server_error')?.runs ?? 0;
    if (kind === 'valid')
      expect(reachedUpstream, `${reachedUpstream} of ${runs} valid requests reached the provider`).toBeGreaterThan(
        runs / 2,
      );
    if (kind === 'unauthorized') expect(reachedUpstream).toBe(0);
  },
  TEST_TIMEOUT_MS,
);
