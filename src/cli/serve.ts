import { startGateway } from '../server.js';
import { createLogger } from '../logger.js';
import { countUsers } from '../repositories/users.js';
import { issueApiKey } from '../auth/issue-credentials.js';
import { withDatabase, type Command } from './command.js';
import { ensureUser } from './users.js';

export const DEV_EMAIL = 'dev@localhost';

export const serveCommand: Command = async ({ config, io }) => {
  const logger = createLogger(config.logLevel);
  // A fresh embedded database gets one development user and key, so the README's curl example works at once.
  const devKey = config.databaseUrl
    ? undefined
    : await withDatabase(config, async (db) => {
        if ((await countUsers(db)) > 0) return undefined;
        const user = await ensureUser(db, DEV_EMAIL);
        return (await issueApiKey(db, { userId: user.id, name: 'development' })).secret;
      });
  const gateway = await startGateway(config, { logger });
  if (devKey) {
    io.out(`\nCreated development user ${DEV_EMAIL} with API key (shown once):\n\n  ${devKey}\n`);
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
