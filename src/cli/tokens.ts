// `modelgate tokens create`: an account auth token (first-party clients such as a dashboard), shown once.
import { issueAccountToken } from '../auth/issue-credentials.js';
import {
  JSON_OPTION,
  parseOptions,
  print,
  requireEmail,
  requireUser,
  subcommand,
  withDatabase,
  type CommandDefinition,
} from './command.js';

export const tokensCommand: CommandDefinition = {
  name: 'tokens',
  usage: [['tokens create --email E [--json]', 'create an account auth token (shown once)']],
  async run({ args, config, io }) {
    const [, rest] = subcommand(args, 'tokens', ['create']);
    const { values } = parseOptions(rest, { email: { type: 'string' }, ...JSON_OPTION });
    const email = requireEmail(values.email);
    return withDatabase(config, async (db) => {
      const user = await requireUser(db, email);
      const { row, secret } = await issueAccountToken(db, { userId: user.id });
      print(io, values.json, `created account token ${row.id}\n${secret}\n(shown once: store it now)`, {
        token_id: row.id,
        token: secret,
      });
      return 0;
    });
  },
};
