// `modelgate admin-keys create|list|delete`: credentials of the operator API (/api/v1/admin/...).
import { createAdminKey, deleteAdminKey, listAdminKeys } from '../services/admin-keys.js';
import {
  CommandFailedError,
  JSON_OPTION,
  parseOptions,
  print,
  requireOption,
  subcommand,
  withDatabase,
  type CommandDefinition,
} from './command.js';

export const adminKeysCommand: CommandDefinition = {
  name: 'admin-keys',
  usage: [
    ['admin-keys create --name N [--json]', 'create an admin key for the operator API (/api/v1/admin); shown once'],
    ['admin-keys list [--json]', 'list active admin keys'],
    ['admin-keys delete --id ADMIN_KEY_ID [--json]', 'revoke an admin key'],
  ],
  async run({ args, config, io }) {
    const [sub, rest] = subcommand(args, 'admin-keys', ['create', 'list', 'delete']);
    const { values } = parseOptions(rest, { name: { type: 'string' }, id: { type: 'string' }, ...JSON_OPTION });
    if (sub === 'create') {
      const name = requireOption(values.name, 'name');
      return withDatabase(config, async (db) => {
        const { row, secret } = await createAdminKey(db, { name });
        print(io, values.json, `created admin key ${row.id} (${name})\n${secret}\n(shown once: store it now)`, {
          key_id: row.id,
          key: secret,
        });
        return 0;
      });
    }
    if (sub === 'list') {
      return withDatabase(config, async (db) => {
        const keys = await listAdminKeys(db);
        const human =
          keys.length === 0
            ? 'no admin keys'
            : keys.map((k) => `${k.id}\t${k.display_prefix}\t${k.name}\t${k.created_at.toISOString()}`).join('\n');
        print(
          io,
          values.json,
          human,
          keys.map((k) => ({ key_id: k.id, name: k.name, prefix: k.display_prefix, created_at: k.created_at })),
        );
        return 0;
      });
    }
    const keyId = requireOption(values.id, 'id');
    return withDatabase(config, async (db) => {
      // Gateways hear of it through the credential notification (migration 0007's trigger).
      if (!(await deleteAdminKey(db, undefined, { keyId, now: new Date() })))
        throw new CommandFailedError(`no active admin key ${keyId}`);
      print(io, values.json, `deleted admin key ${keyId}`, { key_id: keyId, deleted: true });
      return 0;
    });
  },
};
