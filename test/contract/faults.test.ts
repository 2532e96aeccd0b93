// The checks against a deliberately broken deployment (the real gateway behind a proxy that breaks one thing):
// each fault is reported under the check named for it, with a shrunk counterexample and a curl line that names
// the key only as $MODELGATE_API_KEY.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConformance, type RunnerOptions } from '../../src/conformance/runner.js';
import { formatReport, type ConformanceReport } from '../../src/conformance/report.js';
import { SERVED_MODEL, startContractGateway, type ContractGateway } from './helpers/contract-gateway.js';
import { startFaultyProxy, type Fault } from './helpers/faulty-proxy.js';

let target: ContractGateway;
beforeAll(async () => {
  target = await startContractGateway();
});
afterAll(async () => {
  await target?.close();
});

async function runAgainst(
  fault: Fault,
  options: Partial<RunnerOptions>,
): Promise<{ report: ConformanceReport; text: string; failed: string[] }> {
  const proxy = await startFaultyProxy(target.gw.url, fault);
  try {
    const report = await runConformance({
      baseUrl: proxy.url,
      apiKey: target.user.key,
      managementKey: target.user.token,
      runs: 15,
      seed: 1,
      timeLimitMs: 3_000,
      model: SERVED_MODEL,
      ...options,
      // The proxy's faults also hit 405 answers; unsupported_method has its own tests (profiles.test.ts).
      parts: { keys: false, credits: false, ...options.parts, methods: false, midStreamError: false },
    });
    const text = formatReport(report);
    expect(text).not.toContain(target.user.key);
    expect(text).not.toContain(target.user.token);
    return {
      report,
      text,
      failed: [...new Set(report.results.filter((r) => r.outcome === 'failed').map((r) => r.check))].sort(),
    };
  } finally {
    await proxy.close();
  }
}

const on = (path: string) => (req: { path: string }) => req.path.startsWith(`/api/v1${path}`);

describe('a broken deployment fails the check named for its fault', () => {
  it('500 → not_a_server_error, with a curl line to reproduce', async () => {
    const { failed, text, report } = await runAgainst(
      { alter: (req, res) => (on('/credits')(req) ? { ...res, status: 500 } : res) },
      { operations: ['getCredits'], parts: { properties: ['valid'], keys: false, credits: false } },
    );
    expect(failed).toEqual(['not_a_server_error', 'response_schema_conformance']);
    expect(text).toContain(
      `curl -sS -i -N -X GET '${report.baseUrl}/credits' -H "Authorization: Bearer $MODELGATE_API_KEY"`,
    );
    expect(report.ok).toBe(false);
  }, 60_000);

  it('undocumented status, content type, header and body shape', async () => {
    const { failed } = await runAgainst(
      {
        alter: (req, res) => {
          if (!on('/credits')(req)) return res;
          const { 'x-request-id': _dropped, ...headers } = res.headers;
          return { status: 203, headers: { ...headers, 'content-type': 'text/plain' }, body: res.body };
        },
      },
      { operations: ['getCredits'], parts: { properties: ['valid'], keys: false, credits: false } },
    );
    expect(failed).toEqual(['response_headers_conformance', 'status_code_conformance']);
    const shape = await runAgainst(
      {
        alter: (req, res) =>
          on('/credits')(req) && res.status === 200
            ? { ...res, body: JSON.stringify({ data: { total_credits: '12' } }) }
            : res,
      },
      { operations: ['getCredits'], parts: { properties: ['valid'], keys: false, credits: false } },
    );
    expect(shape.failed).toEqual(['response_schema_conformance']);
    const type = await runAgainst(
      {
        alter: (req, res) =>
          on('/credits')(req) ? { ...res, headers: { ...res.headers, 'content-type': 'text/html' } } : res,
      },
      { operations: ['getCredits'], parts: { properties: ['valid'], keys: false, credits: false } },
    );
    expect(type.failed).toEqual(['content_type_conformance']);
  }, 60_000);

  it('accepting invalid input → negative_data_rejection, shrunk to one broken field', async () => {
    const { failed, report } = await runAgainst(
      { alter: (req, res) => (on('/api-keys')(req) && res.status === 400 ? { ...res, status: 201 } : res) },
      { operations: ['createApiKey'], parts: { properties: ['invalid'], keys: false, credits: false } },
    );
    expect(failed).toContain('negative_data_rejection');
    const counterexample = report.results.find((r) => r.check === 'negative_data_rejection')!.counterexample!;
    expect(counterexample.curl.length).toBeLessThan(400);
  }, 60_000);

  it('a credential that is not checked → ignored_auth', async () => {
    const { failed } = await runAgainst(
      {
        alter: (req, res) =>
          on('/key')(req) && res.status === 401 ? { status: 200, headers: res.headers, body: '{"data":{}}' } : res,
      },
      { operations: ['getCurrentKey'], parts: { properties: ['unauthorized'], keys: false, credits: false } },
    );
    expect(failed).toContain('ignored_auth');
  }, 60_000);

  it('an event stream without [DONE] → stream_framing', async () => {
    const { failed } = await runAgainst(
      {
        alter: (_req, res) =>
          res.headers['content-type']?.startsWith('text/event-stream')
            ? { ...res, body: res.body.replace('data: [DONE]\n\n', '') }
            : res,
      },
      { operations: ['createChatCompletion'], parts: { properties: ['valid'], keys: false, credits: false } },
    );
    expect(failed).toEqual(['stream_framing']);
  }, 60_000);

  it('a delete that does not revoke → use_after_free, with the steps that led there', async () => {
    const { failed, report, text } = await runAgainst(
      {
        intercept: (req) => {
          const id = /^\/api\/v1\/api-keys\/([^/?]+)$/.exec(req.path)?.[1];
          if (req.method !== 'DELETE' || !id) return undefined;
          return {
            status: 200,
            headers: { 'content-type': 'application/json', 'x-request-id': 'req_fake' },
            body: JSON.stringify({ deleted: true, key_id: decodeURIComponent(id) }),
          };
        },
      },
      { parts: { properties: [], keys: true, credits: false } },
    );
    expect(failed).toEqual(['use_after_free']);
    const steps = report.results.find((r) => r.check === 'use_after_free')!.counterexample!.steps!;
    expect(steps[0]).toMatch(/^create a key/);
    expect(steps.some((s) => s.startsWith('delete '))).toBe(true);
    expect(text).toMatch(/Authorization: Bearer \$CREATED_KEY_1/);
  }, 60_000);
});
