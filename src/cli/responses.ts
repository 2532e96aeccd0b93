// `modelgate responses purge`: deletes stored responses (docs/stored-responses.md) of a user, in every organization
// they created them in, or of a whole organization. Expired ones are purged by the gateway itself every hour.
import { purgeStoredResponses } from '../services/stored-responses.js';
import { JSON_OPTION, parseOptions, print, subcommand, withDatabase, type CommandDefinition } from './command.js';
import { checkWalletOption, resolveWallet } from './wallet-option.js';

export const responsesCommand: CommandDefinition = {
  name: 'responses',
  usage: [
    [
      'responses purge (--email E | --org ORG_ID) [--json]',
      "delete a user's stored responses (every organization), or an organization's",
    ],
  ],
  details:
    'Stored responses are what `previous_response_id` continues and GET /responses/{id} reads; a purged one answers\n' +
    'previous_response_not_found. A gateway already running may still continue one it holds in memory until that copy\n' +
    'ends (restart it for an immediate effect). MODELGATE_RESPONSE_RETENTION_DAYS purges expired ones every hour.',
  async run({ args, config, io }) {
    subcommand(args, 'responses', ['purge']);
    const { values } = parseOptions(args.slice(1), {
      email: { type: 'string' },
      org: { type: 'string' },
      ...JSON_OPTION,
    });
    const wallet = checkWalletOption(values);
    return withDatabase(config, async (db) => {
      const owner = await resolveWallet(db, wallet);
      const deleted = await purgeStoredResponses(
        db,
        wallet.org !== undefined ? { organizationId: owner.id } : { userId: owner.id },
      );
      print(io, values.json, `deleted ${deleted} stored responses of ${owner.label}`, { ...owner.json, deleted });
      return 0;
    });
  },
};
