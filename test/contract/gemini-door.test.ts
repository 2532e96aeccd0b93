// The conformance kit on the Gemini door: its valid inputs name a served model in the path (as bodies with `model` do
// elsewhere), so they reach the model through the door, streamed (SSE and the JSON array) and not; every answer,
// errors in Google's shape included, matches the document.
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

it(
  'valid Gemini requests reach the served model and every answer conforms',
  async () => {
    const report = await runConformance({
      baseUrl: target.gw.url,
      apiKey: target.user.key,
      managementKey: target.user.token,
      ...BOUNDS,
      // Enough draws that both stream framings and the JSON answer reach the model, whatever else the schema allows.
      runs: Math.max(BOUNDS.runs, 60),
      model: SERVED_MODEL,
      operations: ['geminiGenerateContent', 'geminiStreamGenerateContent', 'geminiCountTokens'],
      parts: { keys: false, credits: false },
    });
    expect(report.ok, formatReport(report)).toBe(true);
    await target.gw.settled();
    const served = await target.gw.db
      .selectFrom('generations')
      .select(['streamed'])
      .where('api_format', '=', 'gemini')
      .where('status', '=', 'success')
      .execute();
    expect(
      served.some((row) => row.streamed),
      JSON.stringify(served),
    ).toBe(true);
    expect(
      served.some((row) => !row.streamed),
      JSON.stringify(served),
    ).toBe(true);
  },
  TEST_TIMEOUT_MS,
);
