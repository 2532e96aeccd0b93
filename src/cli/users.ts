import { newId } from '../auth/secrets.js';
import { createUser, findUserByEmail, findOrCreateUserByEmail } from '../repositories/users.js';
import type { Db } from '../db/database.js';
import { parseOptions, requireEmail, UsageError, withDatabase, type Command } from './command.js';

export function ensureUser(db: Db, email: string) {
  return findOrCreateUserByEmail(db, email, () => newId('usr_'));
}

export const usersCommand: Command = async ({ args, config, io }) => {
  const [sub, ...rest] = args;
  if (sub !== 'create') throw new UsageError('usage: modelgate users create --email E');
  const { values } = parseOptions(rest, { email: { type: 'string' }, json: { type: 'boolean' } });
  const email = requireEmail(values.email);
  return withDatabase(config, async (db) => {
    if (await findUserByEmail(db, email)) {
      io.err(`user ${email} already exists`);
      return 1;
    }
    const user = await createUser(db, { id: newId('usr_'), email });
    io.out(values.json ? JSON.stringify({ user_id: user.id, email: user.email }) : `created user ${user.email} (${user.id})`);
    return 0;
  });
};
