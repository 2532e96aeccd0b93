import { findUserByEmail } from '../repositories/users.js';
import { findApiKeyForUser, listApiKeysForUser, setApiKeyLimits, type ApiKeyLimits } from '../repositories/api-keys.js';
import { createKey, deleteKey } from '../services/api-keys.js';
import { parseOptions, requireEmail, requireOption, UsageError, withDatabase, type Command } from './command.js';
import { ensureUser } from './users.js';

const USAGE =
  'usage: modelgate keys create --email E [--name N] [--json] | keys list --email E [--json] | keys delete --email E --id KEY_ID\n' +
  '       modelgate keys limits --email E --id KEY_ID [--rpm N] [--tpm N] [--free-per-day N]   (value "default" resets)';

/** A limit option: absent → unchanged, "default" → null (gateway default), else a whole number ≥ 0. */
function limitOption(value: string | undefined, name: string): number | null | undefined {
  if (value === undefined) return undefined;
  if (value === 'default') return null;
  if (!/^\d+$/.test(value)) throw new UsageError(`--${name} must be a whole number or "default", got "${value}"`);
  return Number(value);
}

export const keysCommand: Command = async ({ args, config, io }) => {
  const [sub, ...rest] = args;
  const { values } = parseOptions(rest, {
    email: { type: 'string' },
    name: { type: 'string' },
    id: { type: 'string' },
    json: { type: 'boolean' },
    rpm: { type: 'string' },
    tpm: { type: 'string' },
    'free-per-day': { type: 'string' },
  });
  const email = requireEmail(values.email);
  switch (sub) {
    case 'create':
      return withDatabase(config, async (db) => {
        const user = await ensureUser(db, email);
        const { row, secret } = await createKey(db, { userId: user.id, settings: { name: values.name?.trim() || 'default' }, now: new Date() });
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
        const deleted = user ? await deleteKey(db, undefined, { userId: user.id, keyId, now: new Date() }) : false;
        if (!deleted) {
          io.err(`no active key ${keyId} for ${email}`);
          return 1;
        }
        io.out(`deleted key ${keyId}`);
        return 0;
      });
    }
    case 'limits': {
      const keyId = requireOption(values.id, 'id');
      const limits: ApiKeyLimits = {};
      const rpm = limitOption(values.rpm, 'rpm');
      const tpm = limitOption(values.tpm, 'tpm');
      const free = limitOption(values['free-per-day'], 'free-per-day');
      if (rpm !== undefined) limits.rate_limit_rpm = rpm;
      if (tpm !== undefined) limits.rate_limit_tpm = tpm;
      if (free !== undefined) limits.free_requests_per_day = free;
      return withDatabase(config, async (db) => {
        const user = await findUserByEmail(db, email);
        const key = user ? await findApiKeyForUser(db, user.id, keyId) : undefined;
        if (!key) {
          io.err(`no active key ${keyId} for ${email}`);
          return 1;
        }
        const updated = Object.keys(limits).length > 0 ? await setApiKeyLimits(db, keyId, limits) : key;
        io.out(JSON.stringify({
          key_id: keyId,
          rpm: updated?.rate_limit_rpm ?? 'default',
          tpm: updated?.rate_limit_tpm ?? 'default',
          free_per_day: updated?.free_requests_per_day ?? 'default',
        }));
        return 0;
      });
    }
    default:
      throw new UsageError(USAGE);
  }
};
