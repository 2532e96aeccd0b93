import { startGateway } from '../server.js';
import { createLogger } from '../logger.js';
import { countUsers } from '../repositories/users.js';
import { grantCredits } from '../repositories/credits.js';
import { issueApiKey } from '../auth/issue-credentials.js';
import type { Db } from '../db/database.js';
import { usdToNanos } from '../billing/money.js';
import { withDatabase, type Command } from './command.js';
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

export const serveCommand: Command = async ({ config, io }) => {
  const logger = createLogger(config.logLevel);
  const gateway = await startGateway(config, { logger });
  const devKey = config.databaseUrl ? undefined : await bootstrapDevUser(gateway.deps.db);
  if (devKey) {
    io.out(`\nCreated development user ${DEV_EMAIL} with ${DEV_CREDITS_USD} USD of credits and this API key (shown once):\n\n  ${devKey}\n`);
    io.out(`Try: curl ${gateway.url}/api/v1/models -H "Authorization: Bearer ${devKey}"\n`);
  }
  await new Promise<void>((resolve) => {
    const stop = () => void gateway.close().then(resolve);
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  });
  return 0;
};

export const migrateCommand: Command = async ({ config, io }) => {
  await withDatabase(config, async () => undefined);
  io.out('database is up to date');
  return 0;
};
