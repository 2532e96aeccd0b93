// The readiness decision on its own: the order of its checks, a database that never answers, and probes that share
// one database check instead of piling up queries.
import { describe, expect, it } from 'vitest';
import { readinessCheck } from '../../src/health/check-readiness.js';
import { Lifecycle } from '../../src/health/lifecycle.js';

describe('readinessCheck', () => {
  it('is ready when nothing is pending, and names what is', async () => {
    expect(await readinessCheck(async () => [], new Lifecycle())()).toBeUndefined();
    expect(await readinessCheck(async () => ['0007_x'], new Lifecycle())()).toMatchObject({
      reason: 'migrations_pending',
      pending: ['0007_x'],
    });
  });

  it('reports a failing database with its cause, for the log', async () => {
    const cause = new Error('connection refused');
    expect(await readinessCheck(() => Promise.reject(cause), new Lifecycle())()).toMatchObject({
      reason: 'database_unreachable',
      cause,
    });
  });

  it('answers when the database hangs, and probes meanwhile share the one check', async () => {
    let calls = 0;
    const check = readinessCheck(
      () => {
        calls++;
        return new Promise<string[]>(() => {});
      },
      new Lifecycle(),
      20,
    );
    const answers = await Promise.all([check(), check(), check()]);
    expect(answers.map((a) => a?.reason)).toEqual([
      'database_unreachable',
      'database_unreachable',
      'database_unreachable',
    ]);
    expect(calls).toBe(1);
  });

  it('says shutting_down once a stop began, without asking the database', async () => {
    const lifecycle = new Lifecycle();
    let calls = 0;
    const check = readinessCheck(async () => {
      calls++;
      return [];
    }, lifecycle);
    expect(await check()).toBeUndefined();
    lifecycle.beginShutdown();
    expect(await check()).toMatchObject({ reason: 'shutting_down' });
    expect(calls).toBe(1);
  });
});
