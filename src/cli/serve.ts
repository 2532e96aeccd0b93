import { startGateway } from '../server.js';
import { createProcessLogger } from '../logger.js';
import { countUsers } from '../repositories/users.js';
import { grantCredits } from '../repositories/credits.js';
import { issueApiKey } from '../auth/issue-credentials.js';
import type { Db } from '../db/database.js';
import { usdToNanos } from '../billing/money.js';
import cluster from 'node:cluster';
import { parseOptions, withDatabase, type Command } from './command.js';
import { checkWorkersConfig, parseWorkers, runClusterPrimary } from './serve-workers.js';
import { ensureUser } from './users.js';

export const DEV_EMAIL = 'dev@localhost';
const DEV_CREDITS_USD = '5';

/** A fresh embedded database gets one development user, key and a little credit, so the README's curl example works at once. */
async function bootstrapDevUser(db: Db): Promise<string | undefined> {
  if ((await countUsers(db)) > 0) return undefined;
  const user = await ensureUser(db, DEV_EMAIL);
  await grantCredits(db, { userId: user.id, amountNanos: usdToNanos(DEV_CREDITS_USD), note: 'development bootstrap' });
  return (await issueApiKey(db, { userId: user.id, name: 'development' })).secret;
}

export const serveCommand: Command = async ({ args, config, io }) => {
  const { values } = parseOptions(args, { workers: { type: 'string' } });
  const workers = parseWorkers(values.workers);
  checkWorkersConfig(config, workers);
  // The primary of `--workers N` only supervises; each worker (same command line) runs the gateway below.
  if (workers > 1 && cluster.isPrimary) return runClusterPrimary(config, workers);
  // Asynchronous, buffered log writes (see createProcessLogger): every exit path below flushes them.
  const log = createProcessLogger(config.logLevel);
  const { logger } = log;
  // A crash must not take the buffered lines with it: the cause goes to the log, which is written out synchronously
  // (the event loop cannot be trusted any more) before the process exits as Node would have, with code 1.
  process.once('uncaughtException', (err) => {
    logger.fatal({ err }, 'uncaught exception: exiting');
    log.flushSync();
    process.exit(1);
  });
  try {
    const gateway = await startGateway(config, { logger });
    const devKey = config.databaseUrl ? undefined : await bootstrapDevUser(gateway.deps.db);
    // The start-up lines come before the development key on the terminal.
    await log.flush();
    if (devKey) {
      io.out(`\nCreated development user ${DEV_EMAIL} with ${DEV_CREDITS_USD} USD of credits and this API key (shown once):\n\n  ${devKey}\n`);
      io.out(`Try: curl ${gateway.url}/api/v1/models -H "Authorization: Bearer ${devKey}"\n`);
    }
    await new Promise<void>((resolve) => {
      const stop = () => void gateway.close().then(resolve);
      process.once('SIGTERM', stop);
      process.once('SIGINT', stop);
    });
    // A cluster worker's IPC channel to the primary would keep the stopped process alive.
    if (cluster.isWorker) cluster.worker?.disconnect();
    return 0;
  } finally {
    // After "stopped" (or a failed start), before the process exits: no line is left in the buffer.
    await log.flush();
  }
};

export const migrateCommand: Command = async ({ config, io }) => {
  await withDatabase(config, async () => undefined);
  io.out('database is up to date');
  return 0;
};
