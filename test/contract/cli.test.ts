// `modelgate conformance` end to end: arguments, exit codes, the printed report (never the key), the JSON form,
// and the --admin-cli hook that adds credits.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli.js';
import { adminHook } from '../../src/cli/conformance.js';
import { SERVED_MODEL, startContractGateway, type ContractGateway } from './helpers/contract-gateway.js';
import { startFaultyProxy } from './helpers/faulty-proxy.js';
import { CORE_SERVER_TRIGGER, startCoreServer } from './helpers/core-server.js';

let target: ContractGateway;
beforeAll(async () => {
  target = await startContractGateway();
});
afterAll(async () => {
  await target?.close();
});

async function cli(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(
    ['conformance', ...argv],
    { LOG_LEVEL: 'silent' },
    { out: (l) => out.push(l), err: (l) => err.push(l) },
  );
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const quick = ['--runs', '8', '--seed', '4', '--time-limit-seconds', '5', '--timeout-seconds', '10'];

describe('modelgate conformance', () => {
  it('passes a conforming deployment: exit 0, a report per check, progress on stderr', async () => {
    const res = await cli(
      '--base-url',
      target.gw.url,
      '--api-key',
      target.user.key,
      '--model',
      SERVED_MODEL,
      ...quick,
      '--operation',
      'listModels',
      '--operation',
      'getCredits',
    );
    expect(res.code, res.out).toBe(0);
    expect(res.out).toMatch(/^not_a_server_error\s+passed/m);
    expect(res.out).toMatch(/^ignored_auth\s+passed/m);
    // Sequences need operations that --operation left out.
    expect(res.out).toContain('skipped: API key lifecycle (create → list → use → delete → use → list): not selected');
    expect(res.out).toMatch(/^stateful_credits\s+SKIPPED/m);
    expect(res.out).toContain('no hook to add credits (--admin-cli)');
    expect(res.out).toContain(`at ${target.gw.url}/api/v1`);
    expect(res.out).toContain('seed 4');
    expect(res.err).toContain('conformance: listModels [valid]');
    expect(res.out + res.err).not.toContain(target.user.key);
  }, 60_000);

  it('manages keys with --management-key (an API key may not): the key lifecycle passes, the token is never printed', async () => {
    const keyOps = [
      '--operation',
      'listApiKeys',
      '--operation',
      'createApiKey',
      '--operation',
      'deleteApiKey',
      '--operation',
      'getCurrentKey',
    ];
    const res = await cli(
      '--base-url',
      target.gw.url,
      '--api-key',
      target.user.key,
      '--management-key',
      target.user.token,
      '--model',
      SERVED_MODEL,
      ...quick,
      ...keyOps,
    );
    expect(res.code, res.out).toBe(0);
    expect(res.out).toMatch(/^stateful_keys\s+passed/m);
    expect(res.out + res.err).not.toContain(target.user.token);
    const without = await cli(
      '--base-url',
      target.gw.url,
      '--api-key',
      target.user.key,
      '--model',
      SERVED_MODEL,
      ...quick,
      ...keyOps,
      '--quiet',
    );
    expect(without.code, without.out).toBe(0);
    expect(without.out).toContain('the API key may not manage keys (403): give --management-key');
  }, 120_000);

  it('fails a broken deployment: exit 1, a curl line with $MODELGATE_API_KEY; --json gives the same as data', async () => {
    const proxy = await startFaultyProxy(target.gw.url, {
      alter: (req, res) => (req.path.startsWith('/api/v1/credits') ? { ...res, status: 500 } : res),
    });
    try {
      const args = [
        '--base-url',
        proxy.url,
        '--api-key',
        target.user.key,
        ...quick,
        '--operation',
        'getCredits',
        '--quiet',
      ];
      const res = await cli(...args);
      expect(res.code).toBe(1);
      expect(res.out).toContain('✗ not_a_server_error — GET /credits (getCredits) [valid inputs]');
      expect(res.out).toContain(`-H "Authorization: Bearer $MODELGATE_API_KEY"`);
      expect(res.out).not.toContain(target.user.key);
      expect(res.err).toBe('');
      const json = await cli(...args, '--json');
      const report = JSON.parse(json.out);
      expect(report.ok).toBe(false);
      expect(
        report.results.some(
          (r: { check: string; outcome: string }) => r.check === 'not_a_server_error' && r.outcome === 'failed',
        ),
      ).toBe(true);
      expect(json.out).not.toContain(target.user.key);
    } finally {
      await proxy.close();
    }
  }, 60_000);

  it('reports usage errors with exit 2 and stops on a refused key', async () => {
    expect((await cli('--api-key', 'k')).code).toBe(2);
    expect((await cli('--base-url', 'ftp://x', '--api-key', 'k')).code).toBe(2);
    expect((await cli('--base-url', target.gw.url, '--api-key', 'k', '--runs', '0')).code).toBe(2);
    const refused = await cli('--base-url', target.gw.url, '--api-key', 'mg-v1-not-a-key', '--quiet');
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('the API key was refused');
    expect((await cli('--help')).out).toContain('--admin-cli');
  }, 60_000);

  it('--admin-cli runs the command with the amount in {usd} and $MODELGATE_CONFORMANCE_USD', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'conformance-hook-'));
    try {
      const file = path.join(dir, 'out');
      await adminHook(`echo "{usd} $MODELGATE_CONFORMANCE_USD" > ${file}`)(0.0002);
      expect(readFileSync(file, 'utf8').trim()).toBe('0.0002 0.0002');
      await adminHook(`printf %s >> ${file}`)(5);
      expect(readFileSync(file, 'utf8').trim().endsWith('5')).toBe(true);
      await expect(adminHook('exit 3')(1)).rejects.toThrow(/--admin-cli command failed/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('modelgate conformance against another implementation (core routes only)', () => {
  it('--profile core passes (exit 0) and writes JUnit XML; --profile modelgate lists the extensions as not implemented', async () => {
    const server = await startCoreServer();
    const dir = mkdtempSync(path.join(tmpdir(), 'conformance-junit-'));
    try {
      const junit = path.join(dir, 'report.xml');
      const core = await cli(
        '--base-url',
        server.url,
        '--api-key',
        server.apiKey,
        '--profile',
        'core',
        '--model',
        'any/model',
        ...quick,
        '--quiet',
        '--mid-stream-error-prompt',
        CORE_SERVER_TRIGGER,
        '--junit',
        junit,
      );
      expect(core.code, core.out).toBe(0);
      expect(core.out).toContain('profile core');
      expect(core.out).toMatch(/^unsupported_method\s+passed/m);
      const xml = readFileSync(junit, 'utf8');
      expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites name="modelgate conformance: /);
      expect(xml).toContain(' failures="0" ');
      expect(xml).toContain('<testsuite name="stream_framing"');
      expect(xml).not.toContain(server.apiKey);
      // The run from the issue: a plain chat proxy, --model, one operation. It used to abort on GET /models.
      const chatOnly = await cli(
        '--base-url',
        server.url,
        '--api-key',
        server.apiKey,
        '--model',
        'any/model',
        '--operation',
        'createChatCompletion',
        ...quick,
        '--quiet',
      );
      expect(chatOnly.code, chatOnly.out + chatOnly.err).toBe(0);
      const full = await cli('--base-url', server.url, '--api-key', server.apiKey, ...quick, '--junit', junit);
      expect(full.code, full.out).toBe(0);
      expect(full.out).toContain('not implemented: GET /models (listModels)');
      expect(full.err.match(/no model for valid requests/g)).toHaveLength(1);
      expect(readFileSync(junit, 'utf8')).toContain(
        '<skipped message="not implemented: extension: GET /models answered 404"/>',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await server.close();
    }
  }, 120_000);

  it('a broken implementation exits 1, the JUnit file carries each failure with its curl line; a bad --profile is a usage error', async () => {
    const server = await startCoreServer({ noAllowHeader: true });
    const dir = mkdtempSync(path.join(tmpdir(), 'conformance-junit-'));
    try {
      const junit = path.join(dir, 'report.xml');
      const res = await cli(
        '--base-url',
        server.url,
        '--api-key',
        server.apiKey,
        '--profile',
        'core',
        '--model',
        'any/model',
        ...quick,
        '--quiet',
        '--junit',
        junit,
      );
      expect(res.code).toBe(1);
      const xml = readFileSync(junit, 'utf8');
      expect(xml).toMatch(
        /<failure message="405 without an Allow header" type="unsupported_method">[^<]*curl -sS -i -N -X (GET|PUT|PATCH|DELETE|POST) /,
      );
      expect((await cli('--base-url', server.url, '--api-key', 'k', '--profile', 'enterprise')).code).toBe(2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await server.close();
    }
  }, 120_000);
});
