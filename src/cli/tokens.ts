import { issueAccountToken } from '../auth/issue-credentials.js';
import { parseOptions, requireEmail, UsageError, withDatabase, type Command } from './command.js';
import { ensureUser } from './users.js';

export const tokensCommand: Command = async ({ args, config, io }) => {
  const [sub, ...rest] = args;
  if (sub !== 'create') throw new UsageError('usage: modelgate tokens create --email E [--json]');
  const { values } = parseOptions(rest, { email: { type: 'string' }, json: { type: 'boolean' } });
  const email = requireEmail(values.email);
  return withDatabase(config, async (db) => {
    const user = await ensureUser(db, email);
    const { row, secret } = await issueAccountToken(db, { userId: user.id });
    io.out(values.json ? JSON.stringify({ token_id: row.id, token: secret }) : `created account token ${row.id}\n${secret}`);
    return 0;
  });
};
