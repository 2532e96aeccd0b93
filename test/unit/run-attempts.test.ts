// The attempt loop alone, with an injected clock: which failures fail over, the attempt and time budgets,
// Retry-After, and endpoints the circuit breaker refuses.
import { describe, expect, it } from 'vitest';
import { runAttempts } from '../../src/pipeline/run-attempts.js';
import { InMemoryCircuitBreaker } from '../../src/routing/circuit-breaker.js';
import { UpstreamHttpError } from '../../src/pipeline/call-upstream.js';
import { GatewayError } from '../../src/core/gateway-error.js';
import type { Target } from '../../src/routing/resolve-target.js';
import type { GenerationAttempt } from '../../src/db/tables/generations.js';

const target = (model: string, provider: string) =>
  ({ entry: { id: model, endpointKey: `${model}@${provider}` }, provider: { id: provider } }) as unknown as Target;
const upstreamError = (status: number, retryAfterSeconds?: number) =>
  new UpstreamHttpError(
    {
      status: status >= 500 ? 502 : status,
      message: `upstream ${status}`,
      streamCode: 'server_error',
      retryAfterSeconds,
    },
    'p',
    status,
  );
const refused = () => new GatewayError(503, 'unreachable', { reason: 'upstream_unreachable' });

function setup(
  outcomes: Record<string, (() => Error) | 'ok'>,
  options: { maxAttempts?: number; budgetMs?: number; stepMs?: number } = {},
) {
  const clock = { now: 0 };
  const tried: string[] = [];
  const slept: number[] = [];
  const attempts: GenerationAttempt[] = [];
  const breaker = new InMemoryCircuitBreaker({ failureThreshold: 1, cooldownMs: 1000, clock: () => clock.now });
  const run = (targets: Target[]) =>
    runAttempts({
      targets,
      breaker,
      attempts,
      limits: { maxAttempts: options.maxAttempts ?? 10, budgetMs: options.budgetMs ?? 60_000 },
      now: () => clock.now,
      sleep: async (ms) => {
        slept.push(ms);
        clock.now += ms;
      },
      signal: { aborted: false },
      onFailedAttempt: () => undefined,
      attempt: async (t) => {
        const key = `${t.entry.id}@${t.provider.id}`;
        tried.push(key);
        clock.now += options.stepMs ?? 10;
        const outcome = outcomes[key];
        if (outcome === 'ok') return key;
        throw outcome();
      },
    });
  return { run, tried, slept, attempts, breaker, clock };
}

describe('runAttempts', () => {
  it('fails over on 5xx, 429, 408 and connection failures, and records every attempt', async () => {
    const { run, tried, attempts } = setup({
      'm@a': () => upstreamError(500),
      'm@b': () => upstreamError(429),
      'm@c': () => upstreamError(408),
      'm@d': refused,
      'm@e': 'ok',
    });
    const { value } = await run(['a', 'b', 'c', 'd', 'e'].map((p) => target('m', p)));
    expect(value).toBe('m@e');
    expect(tried).toHaveLength(5);
    expect(attempts.map((a) => [a.provider, a.status, a.error_code])).toEqual([
      ['a', 500, 'server_error'],
      ['b', 429, 'server_error'],
      ['c', 408, 'server_error'],
      ['d', null, 'upstream_unreachable'],
      ['e', 200, null],
    ]);
  });

  it.each([400, 401, 403, 404])('stops at once on %i (another endpoint would repeat it)', async (status) => {
    const { run, tried } = setup({ 'm@a': () => upstreamError(status), 'm@b': 'ok' });
    await expect(run([target('m', 'a'), target('m', 'b')])).rejects.toMatchObject({ status });
    expect(tried).toEqual(['m@a']);
  });

  it('stops after maxAttempts and answers the last error', async () => {
    const { run, tried } = setup(
      { 'm@a': () => upstreamError(500), 'm@b': () => upstreamError(503), 'm@c': 'ok' },
      { maxAttempts: 2 },
    );
    await expect(run([target('m', 'a'), target('m', 'b'), target('m', 'c')])).rejects.toMatchObject({
      metadata: { upstream_status: 503 },
    });
    expect(tried).toEqual(['m@a', 'm@b']);
  });

  it('starts no attempt once the time budget is spent', async () => {
    const { run, tried } = setup({ 'm@a': () => upstreamError(500), 'm@b': 'ok' }, { budgetMs: 100, stepMs: 100 });
    await expect(run([target('m', 'a'), target('m', 'b')])).rejects.toMatchObject({ status: 502 });
    expect(tried).toEqual(['m@a']);
  });

  it('waits out a short Retry-After before asking the same provider again; a long one skips that provider', async () => {
    const short = setup({ 'm@a': () => upstreamError(429, 1), 'n@a': 'ok' });
    expect((await short.run([target('m', 'a'), target('n', 'a')])).value).toBe('n@a');
    expect(short.slept).toEqual([1000]);

    const long = setup({ 'm@a': () => upstreamError(429, 30), 'n@a': 'ok', 'n@b': 'ok' });
    expect((await long.run([target('m', 'a'), target('n', 'a'), target('n', 'b')])).value).toBe('n@b');
    expect(long.tried).toEqual(['m@a', 'n@b']);
  });

  it('after a queue timeout (no upstream slot in time) tries another provider, not the same one, and opens no breaker', async () => {
    const busy = () => new GatewayError(503, 'Provider a is busy', { provider: 'a', reason: 'upstream_queue_timeout' });
    const { run, tried, attempts, breaker } = setup({ 'm@a': busy, 'n@a': 'ok', 'm@b': 'ok' });
    expect((await run([target('m', 'a'), target('n', 'a'), target('m', 'b')])).value).toBe('m@b');
    expect(tried).toEqual(['m@a', 'm@b']);
    expect(attempts.map((a) => [a.provider, a.error_code])).toEqual([
      ['a', 'upstream_queue_timeout'],
      ['b', null],
    ]);
    // failureThreshold is 1 here: a failure verdict would have opened it.
    expect(breaker.state('m@a')).toBe('closed');
  });

  it('skips endpoints whose breaker refuses; with none left it answers 503', async () => {
    const { run, tried, breaker } = setup({ 'm@a': 'ok', 'm@b': 'ok' });
    breaker.recordFailure('m@a');
    expect((await run([target('m', 'a'), target('m', 'b')])).value).toBe('m@b');
    expect(tried).toEqual(['m@b']);
    breaker.recordFailure('m@b');
    await expect(run([target('m', 'a'), target('m', 'b')])).rejects.toMatchObject({
      status: 503,
      metadata: { reason: 'endpoint_unavailable' },
    });
  });
});

describe('runAttempts with a breaker that answers asynchronously (shared on Redis)', () => {
  it('waits for its answer: a refused endpoint is skipped, outcomes are reported without being awaited', async () => {
    const reported: string[] = [];
    const breaker = {
      state: () => 'closed' as const,
      allowRequest: async (key: string) => key !== 'm@a',
      recordSuccess: (key: string) => new Promise<void>(() => void reported.push(`ok ${key}`)), // never settles
      recordFailure: (key: string) => new Promise<void>(() => void reported.push(`failed ${key}`)),
    };
    const tried: string[] = [];
    const { value } = await runAttempts({
      targets: [target('m', 'a'), target('m', 'b'), target('m', 'c')],
      breaker,
      attempts: [],
      limits: { maxAttempts: 10, budgetMs: 60_000 },
      now: () => 0,
      sleep: async () => undefined,
      signal: { aborted: false },
      onFailedAttempt: () => undefined,
      attempt: async (t) => {
        tried.push(t.provider.id);
        if (t.provider.id === 'b') throw upstreamError(500);
        return t.provider.id;
      },
    });
    expect(value).toBe('c');
    expect(tried).toEqual(['b', 'c']);
    expect(reported).toEqual(['failed m@b', 'ok m@c']);
  });
});
