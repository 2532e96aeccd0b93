import { newId } from '../auth/secrets.js';
import { findOrCreateUserByEmail } from '../repositories/users.js';
import { createUserAccount, UserExistsError } from '../services/users.js';
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
    let user;
    try {
      user = await createUserAccount(db, { email });
    } catch (err) {
      if (!(err instanceof UserExistsError)) throw err;
      io.err(`user ${email} already exists`);
      return 1;
    }
    io.out(values.json ? JSON.stringify({ user_id: user.id, email: user.email }) : `created user ${user.email} (${user.id})`);
    return 0;
  });
};
