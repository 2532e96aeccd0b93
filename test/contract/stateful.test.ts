// Model-based sequences against the in-process gateway: the API-key lifecycle (create → list → use → delete →
// use → list, and generated orders; a deleted key refused everywhere; keys managed with the account token, and a
// created key kept in its scope) and credits (add through the test helper's grant → spend → 402), with a fresh
// account that starts at zero so the 402 path is reached.
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

const sequences = { sequenceRuns: Math.max(8, Math.ceil(BOUNDS.runs / 3)), maxCommands: 12 };

const keysOnly = { properties: [], credits: false, methods: false, midStreamError: false };

it(
  'API key lifecycle and use after delete, keys managed with the account token',
  async () => {
    const report = await runConformance({
      baseUrl: target.gw.url,
      apiKey: target.user.key,
      managementKey: target.user.token,
      ...BOUNDS,
      ...sequences,
      model: SERVED_MODEL,
      parts: keysOnly,
    });
    expect(report.ok, formatReport(report)).toBe(true);
    const ran = report.results.filter((r) => r.check !== 'route_implemented');
    expect(ran.map((r) => `${r.check}:${r.outcome}`).sort()).toEqual(['stateful_keys:passed', 'use_after_free:passed']);
    expect(formatReport(report)).not.toContain(target.user.token);
    // The run leaves the account as it found it: only the key it started with.
    const listed = (await (await target.gw.fetch('/api/v1/api-keys', { key: target.user.key })).json()) as {
      data: { key_id: string }[];
    };
    expect(listed.data.map((k) => k.key_id)).toEqual([target.user.keyId]);
  },
  TEST_TIMEOUT_MS,
);

it(
  'without a management credential, skips the key lifecycle with a note naming the option (the API key gets 403)',
  async () => {
    const report = await runConformance({
      baseUrl: target.gw.url,
      apiKey: target.user.key,
      ...BOUNDS,
      ...sequences,
      model: SERVED_MODEL,
      parts: keysOnly,
    });
    expect(report.ok, formatReport(report)).toBe(true);
    const keys = report.results.find((r) => r.check === 'stateful_keys')!;
    expect(keys).toMatchObject({ outcome: 'skipped', note: expect.stringContaining('--management-key') });
  },
  TEST_TIMEOUT_MS,
);

it(
  'credits: add → spend → 402, free models at any balance',
  async () => {
    const account = await target.gw.createUser();
    const before = target.mock.requests;
    const report = await runConformance({
      baseUrl: target.gw.url,
      apiKey: account.key,
      ...BOUNDS,
      ...sequences,
      model: SERVED_MODEL,
      addCredits: (usd) => target.gw.grant(account.userId, usd),
      parts: { properties: [], keys: false, methods: false, midStreamError: false },
    });
    expect(report.ok, formatReport(report)).toBe(true);
    expect(report.results.filter((r) => r.check !== 'route_implemented').map((r) => `${r.check}:${r.outcome}`)).toEqual(
      ['stateful_credits:passed'],
    );
    expect(target.mock.requests - before).toBeGreaterThan(3);
  },
  TEST_TIMEOUT_MS,
);
