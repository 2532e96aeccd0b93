// `modelgate admin-keys create|list|delete`: credentials of the operator API (/api/v1/admin/...).
import { createAdminKey, deleteAdminKey, listAdminKeys } from '../services/admin-keys.js';
import { parseOptions, requireOption, UsageError, withDatabase, type Command } from './command.js';

const USAGE = 'usage: modelgate admin-keys create --name N [--json] | admin-keys list [--json] | admin-keys delete --id ADMIN_KEY_ID';

export const adminKeysCommand: Command = async ({ args, config, io }) => {
  const [sub, ...rest] = args;
  const { values } = parseOptions(rest, { name: { type: 'string' }, id: { type: 'string' }, json: { type: 'boolean' } });
  switch (sub) {
    case 'create': {
      const name = requireOption(values.name, 'name');
      return withDatabase(config, async (db) => {
        const { row, secret } = await createAdminKey(db, { name });
        if (values.json) io.out(JSON.stringify({ key_id: row.id, key: secret }));
        else io.out(`created admin key ${row.id} (${name})\n${secret}\n(shown once: store it now)`);
        return 0;
      });
    }
    case 'list':
      return withDatabase(config, async (db) => {
        const keys = await listAdminKeys(db);
        if (values.json) {
          io.out(JSON.stringify(keys.map((k) => ({ key_id: k.id, name: k.name, prefix: k.display_prefix, created_at: k.created_at }))));
        } else {
          for (const k of keys) io.out(`${k.id}\t${k.display_prefix}\t${k.name}\t${k.created_at.toISOString()}`);
          if (keys.length === 0) io.err('no admin keys');
        }
        return 0;
      });
    case 'delete': {
      const keyId = requireOption(values.id, 'id');
      return withDatabase(config, async (db) => {
        // Gateways hear of it through the credential notification (migration 0007's trigger).
        if (!(await deleteAdminKey(db, undefined, { keyId, now: new Date() }))) {
          io.err(`no active admin key ${keyId}`);
          return 1;
        }
        io.out(`deleted admin key ${keyId}`);
        return 0;
      });
    }
    default:
      throw new UsageError(USAGE);
  }
};
