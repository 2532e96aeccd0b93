// `modelgate migrate`: bring the schema up to date (every command and `serve` also do it first). On an embedded folder
// that a gateway serves, this goes through the gateway like every other command.
import { JSON_OPTION, parseOptions, print, withDatabase, type CommandDefinition } from './command.js';

export const migrateCommand: CommandDefinition = {
  name: 'migrate',
  usage: [['migrate [--json]', 'bring the database schema up to date']],
  async run({ args, config, io }) {
    const { values } = parseOptions(args, JSON_OPTION);
    await withDatabase(config, async () => undefined);
    print(io, values.json, 'database is up to date', { up_to_date: true });
    return 0;
  },
};
