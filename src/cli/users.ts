// `modelgate users create|list`: the accounts that keys, tokens, credits and subscriptions belong to.
import { createUserAccount, listUsers, UserExistsError, type User } from '../services/users.js';
import type { Db } from '../db/database.js';
import {
  CLI,
  CommandFailedError,
  JSON_OPTION,
  parseOptions,
  print,
  requireEmail,
  subcommand,
  withDatabase,
  type CommandDefinition,
} from './command.js';
import { textTable } from './text-table.js';

const PAGE = 500;

/** Every user, newest first, a page at a time through the operator service. */
async function allUsers(db: Db): Promise<User[]> {
  const users: User[] = [];
  let cursor: string | undefined;
  do {
    const page = await listUsers(db, { limit: PAGE, ...(cursor === undefined ? {} : { cursor }) });
    users.push(...page.rows);
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined);
  return users;
}

export const usersCommand: CommandDefinition = {
  name: 'users',
  usage: [
    ['users create --email E [--json]', 'create a user (every other command needs an existing one)'],
    ['users list [--json]', 'list the users, newest first'],
  ],
  async run({ args, config, io }) {
    const [sub, rest] = subcommand(args, 'users', ['create', 'list']);
    if (sub === 'list') {
      const { values } = parseOptions(rest, { ...JSON_OPTION });
      return withDatabase(config, async (db) => {
        const users = await allUsers(db);
        const human =
          users.length === 0
            ? `no users yet: create one with "${CLI} users create --email E"`
            : textTable(
                ['USER ID', 'EMAIL', 'CREATED'],
                users.map((u) => [u.id, u.email, u.created_at.toISOString()]),
              );
        print(
          io,
          values.json,
          human,
          users.map((u) => ({ user_id: u.id, email: u.email, created_at: u.created_at })),
        );
        return 0;
      });
    }
    const { values } = parseOptions(rest, { email: { type: 'string' }, ...JSON_OPTION });
    const email = requireEmail(values.email);
    return withDatabase(config, async (db) => {
      const user = await createUserAccount(db, { email }).catch((err) => {
        throw err instanceof UserExistsError ? new CommandFailedError(`user ${email} already exists`) : err;
      });
      print(io, values.json, `created user ${user.email} (${user.id})`, { user_id: user.id, email: user.email });
      return 0;
    });
  },
};
