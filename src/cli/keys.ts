import { issueApiKey } from '../auth/issue-credentials.js';
import { findUserByEmail } from '../repositories/users.js';
import { listApiKeysForUser, softDeleteApiKey } from '../repositories/api-keys.js';
import { parseOptions, requireEmail, requireOption, UsageError, withDatabase, type Command } from './command.js';
import { ensureUser } from './users.js';

const USAGE = 'usage: modelgate keys create --email E [--name N] [--json] | keys list --email E [--json] | keys delete --email E --id KEY_ID';

export const keysCommand: Command = async ({ args, config, io }) => {
  const [sub, ...rest] = args;
  const { values } = parseOptions(rest, {
    email: { type: 'string' },
    name: { type: 'string' },
    id: { type: 'string' },
    json: { type: 'boolean' },
  });
  const email = requireEmail(values.email);
  switch (sub) {
    case 'create':
      return withDatabase(config, async (db) => {
        const user = await ensureUser(db, email);
        const { row, secret } = await issueApiKey(db, { userId: user.id, name: values.name?.trim() || 'default' });
        if (values.json) io.out(JSON.stringify({ key_id: row.id, key: secret }));
        else io.out(`created key ${row.id} for ${email}\n${secret}\n(shown once: store it now)`);
        return 0;
      });
    case 'list':
      return withDatabase(config, async (db) => {
        const user = await findUserByEmail(db, email);
        const keys = user ? await listApiKeysForUser(db, user.id) : [];
        if (values.json) {
          io.out(JSON.stringify(keys.map((k) => ({ key_id: k.id, name: k.name, prefix: k.display_prefix, created_at: k.created_at }))));
        } else {
          for (const k of keys) io.out(`${k.id}\t${k.display_prefix}\t${k.name}\t${k.created_at.toISOString()}`);
          if (keys.length === 0) io.err(`no keys for ${email}`);
        }
        return 0;
      });
    case 'delete': {
      const keyId = requireOption(values.id, 'id');
      return withDatabase(config, async (db) => {
        const user = await findUserByEmail(db, email);
        const deleted = user ? await softDeleteApiKey(db, { userId: user.id, keyId, now: new Date() }) : false;
        if (!deleted) {
          io.err(`no active key ${keyId} for ${email}`);
          return 1;
        }
        io.out(`deleted key ${keyId}`);
        return 0;
      });
    }
    default:
      throw new UsageError(USAGE);
  }
};
