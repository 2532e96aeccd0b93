// `modelgate users create`: the account that keys, tokens, credits and subscriptions belong to.
import { newId } from '../auth/secrets.js';
import { createUser, findUserByEmail } from '../repositories/users.js';
import { CommandFailedError, JSON_OPTION, parseOptions, print, requireEmail, subcommand, withDatabase, type CommandDefinition } from './command.js';

export const usersCommand: CommandDefinition = {
  name: 'users',
  usage: [['users create --email E [--json]', 'create a user (every other command needs an existing one)']],
  async run({ args, config, io }) {
    const [, rest] = subcommand(args, 'users', ['create']);
    const { values } = parseOptions(rest, { email: { type: 'string' }, ...JSON_OPTION });
    const email = requireEmail(values.email);
    return withDatabase(config, async (db) => {
      if (await findUserByEmail(db, email)) throw new CommandFailedError(`user ${email} already exists`);
      const user = await createUser(db, { id: newId('usr_'), email });
      print(io, values.json, `created user ${user.email} (${user.id})`, { user_id: user.id, email: user.email });
      return 0;
    });
  },
};
