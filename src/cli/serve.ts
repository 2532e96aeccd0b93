import { startGateway } from '../server.js';
import { createProcessLogger } from '../logger.js';
import { countUsers, findOrCreateUserByEmail, findUserByEmail } from '../repositories/users.js';
import { newId } from '../auth/secrets.js';
import { grantCredits } from '../repositories/credits.js';
import { issueApiKey } from '../auth/issue-credentials.js';
import type { Db } from '../db/database.js';
import { usdToNanos } from '../core/money.js';
import type { Logger } from '../logger.js';
import { CLI, parseOptions, type CommandDefinition } from './command.js';
import cluster from 'node:cluster';
import { checkWorkersConfig, parseWorkers, runClusterPrimary } from './serve-workers.js';

export const DEV_EMAIL = 'dev@localhost';
/**
 * Enough for a few requests at once without max_tokens, as agent CLIs send them, to the dearest model of the shipped
 * catalog (the admission bound then assumes the model's whole output); test/unit/development-credit.test.ts computes
 * that need from the catalog.
 */
export const DEV_CREDITS_USD = '20';

/** A fresh embedded database gets one development user, key and a little credit, so the README's curl example works at once. */
async function bootstrapDevUser(db: Db): Promise<string | undefined> {
  if ((await countUsers(db)) > 0) return undefined;
  const user = await findOrCreateUserByEmail(db, DEV_EMAIL, () => newId('usr_'));
  await grantCredits(db, { userId: user.id, amountNanos: usdToNanos(DEV_CREDITS_USD), note: 'development bootstrap' });
  return (await issueApiKey(db, { organizationId: user.id, memberUserId: user.id, name: 'development' })).secret;
}

/** A restart creates no key (the first start showed it once): say how to get one. */
async function logDevKeyHint(db: Db, logger: Logger): Promise<void> {
  const command = (await findUserByEmail(db, DEV_EMAIL))
    ? `${CLI} keys create --email ${DEV_EMAIL}`
    : `${CLI} users create --email E, then ${CLI} keys create --email E`;
  logger.info(
    { command },
    `no development key created at this start (only a fresh database gets one): get a key with \`${command}\``,
  );
}

const SERVE_DETAILS = `Configuration comes from the environment (docs/configuration.md): PORT, HOST, DATABASE_URL, MODELGATE_DATA_DIR, ...

Without DATABASE_URL the gateway keeps its data in the embedded database in MODELGATE_DATA_DIR (default ./.modelgate)
and owns that folder while it runs: it holds modelgate.lock there and serves the database on the unix socket
.s.PGSQL.5432 in the folder, through which every other modelgate command reaches it. A second serve on a served
folder exits with code 2 without touching it. A fresh folder gets a development user (${DEV_EMAIL}) with a key.`;

export const serveCommand: CommandDefinition = {
  name: 'serve',
  usage: [
    [
      'serve [--workers N|auto]',
      'start the gateway (configured by PORT, HOST, DATABASE_URL, MODELGATE_DATA_DIR, ...); N > 1 needs DATABASE_URL and MODELGATE_REDIS_URL',
    ],
  ],
  details: SERVE_DETAILS,
  run: serve,
};

async function serve({ args, config, io }: Parameters<CommandDefinition['run']>[0]): Promise<number> {
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
    const devKey = config.databaseUrl ? undefined : await bootstrapDevUser(gateway.db);
    if (!devKey && !config.databaseUrl) await logDevKeyHint(gateway.db, logger);
    // The start-up lines come before the development key on the terminal.
    await log.flush();
    if (devKey) {
      io.out(
        `\nCreated development user ${DEV_EMAIL} with ${DEV_CREDITS_USD} USD of credits and this API key (shown once):\n\n  ${devKey}\n`,
      );
      io.out(`Try: curl ${gateway.url}/api/v1/models -H "Authorization: Bearer ${devKey}"\n`);
      io.out(`Another key for it, any time: ${CLI} keys create --email ${DEV_EMAIL}\n`);
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
}
