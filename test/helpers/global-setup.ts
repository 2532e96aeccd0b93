// Local runs start the machine's PostgreSQL and Redis the same way CI does, so their suites run rather than skip; the
// CLI the spawned-process tests run is compiled (helpers/built-cli.ts).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { ensureBuiltCli } from './built-cli.js';

export default function setup(): void {
  startPostgres();
  startRedis();
  ensureBuiltCli();
}

function startRedis(): void {
  if (process.env.TEST_REDIS_URL || process.env.MODELGATE_TEST_SKIP_REDIS_START) return;
  if (!existsSync('/usr/bin/redis-server')) return;
  try {
    execFileSync('bash', ['scripts/ensure-redis.sh'], { stdio: ['ignore', 'ignore', 'inherit'], timeout: 30_000 });
  } catch (err) {
    // The Redis suites report (and under CI=true fail) on their own when no server answers.
    console.warn(`could not start local Redis: ${(err as Error).message}`);
  }
}

function startPostgres(): void {
  if (process.env.TEST_DATABASE_URL || process.env.MODELGATE_TEST_SKIP_PG_START) return;
  if (!existsSync('/usr/bin/pg_lsclusters') || process.getuid?.() !== 0) return;
  try {
    execFileSync('bash', ['scripts/ensure-postgres.sh'], { stdio: ['ignore', 'ignore', 'inherit'], timeout: 60_000 });
  } catch (err) {
    // The PostgreSQL suites report (and under CI=true fail) on their own when no server answers.
    console.warn(`could not start local PostgreSQL: ${(err as Error).message}`);
  }
}
