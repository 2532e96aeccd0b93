// `modelgate serve --workers N`: refused where workers could not behave as one gateway (embedded database, no Redis);
// on PostgreSQL and Redis, N workers share the port, GET /metrics aggregates them, and SIGTERM to the primary drains
// every worker: a stream in flight finishes and is recorded.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli.js';
import { parseWorkers } from '../../src/cli/serve-workers.js';
import { issueApiKey } from '../../src/auth/issue-credentials.js';
import { grantCredits } from '../../src/repositories/credits.js';
import { findOrCreateUserByEmail } from '../../src/repositories/users.js';
import { newId } from '../../src/auth/secrets.js';
import { describeWithPostgres, openTestDatabase, type OpenTestDatabase } from '../helpers/databases.js';
import { describeWithRedis, testRedisUrl, uniqueRedisPrefix } from '../helpers/redis-server.js';
import { MockUpstream, openAiSse } from '../helpers/mock-upstream.js';
import { metricValue, requestOnce, startServe, type ServeProcess } from '../helpers/serve-process.js';

const work = mkdtempSync(path.join(tmpdir(), 'modelgate-workers-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function cli(argv: string[], env: NodeJS.ProcessEnv) {
  const err: string[] = [];
  const code = await runCli(
    argv,
    { LOG_LEVEL: 'silent', ...env },
    { out: () => undefined, err: (line) => err.push(line) },
  );
  return { code, err: err.join('\n') };
}

describe('serve --workers: refusals', () => {
  it('refuses several workers on the embedded database, naming DATABASE_URL', async () => {
    const run = await cli(['serve', '--workers', '2'], {
      MODELGATE_DATA_DIR: path.join(work, 'data'),
      MODELGATE_REDIS_URL: 'redis://127.0.0.1:6379',
    });
    expect(run.code).toBe(2);
    expect(run.err).toContain('DATABASE_URL');
  });

  it('refuses several workers without Redis, naming MODELGATE_REDIS_URL', async () => {
    const run = await cli(['serve', '--workers', '2'], { DATABASE_URL: 'postgres://nobody@127.0.0.1:9/none' });
    expect(run.code).toBe(2);
    expect(run.err).toContain('MODELGATE_REDIS_URL');
  });

  it('refuses a worker count that is not a number from 1, or auto', async () => {
    for (const bad of ['0', 'two', '-1', '1.5']) {
      const run = await cli(['serve', `--workers=${bad}`], {});
      expect(run.code, bad).toBe(2);
      expect(run.err).toContain('--workers');
    }
    expect(parseWorkers('auto')).toBeGreaterThanOrEqual(1);
    expect(parseWorkers(undefined)).toBe(1);
  });
});

const chunk = (content: string) => ({
  id: 'c',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'm',
  choices: [{ index: 0, delta: { content }, finish_reason: null }],
});
const usage = {
  id: 'c',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'm',
  choices: [],
  usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
};
const METRICS_TOKEN = 'metrics-token-0123456789';

describeWithPostgres('serve --workers 2 on PostgreSQL', () => {
  describeWithRedis('and Redis', () => {
    let database: OpenTestDatabase;
    let upstream: MockUpstream;
    let serve: ServeProcess | undefined;

    beforeAll(async () => {
      upstream = await new MockUpstream().start();
      database = await openTestDatabase('postgres', { migrated: true });
    });
    afterAll(async () => {
      serve?.child.kill('SIGKILL');
      await upstream?.close();
      await database?.close();
    });

    it('serves from both workers, aggregates their metrics, and drains every worker on SIGTERM', {
      timeout: 90_000,
    }, async () => {
      serve = await startServe({
        args: ['--workers', '2'],
        logFile: path.join(work, 'cluster.log'),
        ready: 'modelgate cluster listening',
        env: {
          DATABASE_URL: database.url!,
          MODELGATE_REDIS_URL: testRedisUrl(),
          MODELGATE_REDIS_PREFIX: uniqueRedisPrefix(),
          MODELGATE_METRICS_TOKEN: METRICS_TOKEN,
          MODELGATE_CATALOG: 'test/fixtures/catalog/test-catalog.json',
          OPENAI_API_KEY: 'k',
          OPENAI_BASE_URL: `${upstream.url}/v1`,
        },
      });
      // Each worker logs its own start (its buffered log reaches the file within a second).
      const listening = () => serve!.logLines().filter((line) => line.msg === 'modelgate listening');
      while (listening().length < 2) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(listening()).toHaveLength(2);

      const user = await findOrCreateUserByEmail(database.db, `w-${newId('')}@example.com`, () => newId('usr_'));
      await grantCredits(database.db, { userId: user.id, amountNanos: 100_000_000_000n, note: 'test' });
      const { secret } = await issueApiKey(database.db, {
        organizationId: user.id,
        memberUserId: user.id,
        name: 'workers',
      });
      const chat = (stream: boolean) =>
        requestOnce(`${serve!.url}/api/v1/chat/completions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
          body: JSON.stringify({ model: 'openai/gpt-test', messages: [{ role: 'user', content: 'hi' }], stream }),
        });

      upstream.always({ kind: 'sse', chunks: openAiSse([chunk('ok'), usage]) });
      // One connection per request: the primary hands connections to the workers in turn.
      for (let i = 0; i < 4; i++) expect((await chat(true)).status).toBe(200);
      expect((await requestOnce(`${serve.url}/metrics`)).status).toBe(401);
      // Settlements are written in batches after the responses: the counters are read until all four are in.
      let text = '';
      for (;;) {
        const metrics = await requestOnce(`${serve.url}/metrics`, {
          headers: { authorization: `Bearer ${METRICS_TOKEN}` },
        });
        expect(metrics.status).toBe(200);
        text = metrics.body;
        if (metricValue(text, 'modelgate_requests_total') >= 4) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      // Summed over both workers (each served some of the four).
      expect(metricValue(text, 'modelgate_requests_total', { model: 'openai/gpt-test', status: 'success' })).toBe(4);
      expect(metricValue(text, 'modelgate_upstream_attempts_total', { provider: 'openai', outcome: 'ok' })).toBe(4);

      // A stream in flight when the primary gets SIGTERM finishes, and is recorded.
      upstream.reset();
      upstream.always({
        kind: 'sse',
        chunks: [...openAiSse([chunk('a')], false), { pauseMs: 1000 }, ...openAiSse([chunk('b'), usage])],
      });
      const inFlight = chat(true);
      while (upstream.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
      const code = serve.stop();
      const last = await inFlight;
      expect(last.status).toBe(200);
      expect(last.body).toContain('[DONE]');
      expect(await code).toBe(0);
      const messages = serve.logLines().map((line) => line.msg);
      expect(messages.filter((msg) => msg === 'stopped')).toHaveLength(2);
      expect(messages.at(-1)).toBe('cluster stopped');
      const rows = await database.db
        .selectFrom('generations')
        .select(['id', 'status'])
        .where('user_id', '=', user.id)
        .execute();
      expect(rows).toHaveLength(5);
      expect(rows.every((row) => row.status === 'success')).toBe(true);
    });
  });
});
