// `modelgate keys create|list|delete|limits`: a user's API keys (secrets shown once; only their hashes are stored).
// The CLI acts for the operator, so it may create either kind: `--manage` makes a management key (manages the
// account's inference keys, calls no model), the only kind of key that can create keys over HTTP.
import { CONSOLE_ACTOR } from '../services/audit-log.js';
import { keyUpdated } from '../services/key-changes.js';
import { inTransaction } from '../db/in-transaction.js';
import { createKey, deleteKey, TooManyKeysError } from '../services/api-keys.js';
import { findApiKeyForUser, listApiKeysForUser, setApiKeyLimits, type ApiKeyLimits } from '../repositories/api-keys.js';
import {
  CommandFailedError,
  JSON_OPTION,
  parseOptions,
  print,
  requireEmail,
  requireOption,
  requireUser,
  subcommand,
  UsageError,
  withDatabase,
  type CommandDefinition,
} from './command.js';
import { textTable } from './text-table.js';

/** A limit option: absent → unchanged, "default" → null (gateway default), else a whole number ≥ 0. */
function limitOption(value: string | undefined, name: string): number | null | undefined {
  if (value === undefined) return undefined;
  if (value === 'default') return null;
  if (!/^\d+$/.test(value)) throw new UsageError(`--${name} must be a whole number or "default", got "${value}"`);
  return Number(value);
}

const SUBCOMMANDS = ['create', 'list', 'delete', 'limits'] as const;

export const keysCommand: CommandDefinition = {
  name: 'keys',
  usage: [
    [
      'keys create --email E [--name N] [--manage] [--json]',
      'create an API key, or with --manage a management key (shown once)',
    ],
    ['keys list --email E [--json]', "list a user's active keys and their kind"],
    ['keys delete --email E --id KEY_ID [--json]', 'revoke a key (the running gateway refuses it at once)'],
    [
      'keys limits --email E --id KEY_ID [--rpm N] [--tpm N] [--free-per-day N] [--json]',
      'show or set a key\'s own limits, on top of its account\'s ("default" removes them)',
    ],
  ],
  async run({ args, config, io }) {
    const [sub, rest] = subcommand(args, 'keys', SUBCOMMANDS);
    const { values } = parseOptions(rest, {
      email: { type: 'string' },
      name: { type: 'string' },
      id: { type: 'string' },
      rpm: { type: 'string' },
      tpm: { type: 'string' },
      'free-per-day': { type: 'string' },
      manage: { type: 'boolean' },
      ...JSON_OPTION,
    });
    const email = requireEmail(values.email);
    const json = values.json;
    switch (sub) {
      case 'create':
        return withDatabase(config, async (db) => {
          const user = await requireUser(db, email);
          const kind = values.manage ? 'management' : 'inference';
          const { row, secret } = await createKey(db, {
            organizationId: user.id,
            memberUserId: user.id,
            settings: { name: values.name?.trim() || 'default' },
            kind,
            now: new Date(),
            maxKeys: config.maxKeysPerAccount,
            actor: CONSOLE_ACTOR,
          }).catch((err: unknown) => {
            if (err instanceof TooManyKeysError)
              throw new CommandFailedError(`${email}: ${err.message} (MODELGATE_MAX_KEYS_PER_ACCOUNT)`);
            throw err;
          });
          const what = kind === 'management' ? 'management key (manages keys, calls no model)' : 'key';
          print(io, json, `created ${what} ${row.id} for ${email}\n${secret}\n(shown once: store it now)`, {
            key_id: row.id,
            key: secret,
            kind,
          });
          return 0;
        });
      case 'list':
        return withDatabase(config, async (db) => {
          const user = await requireUser(db, email);
          const keys = await listApiKeysForUser(db, user.id);
          const human =
            keys.length === 0
              ? `no active keys for ${email}`
              : textTable(
                  ['KEY ID', 'KIND', 'PREFIX', 'NAME', 'CREATED'],
                  keys.map((k) => [k.id, k.kind, k.display_prefix, k.name, k.created_at.toISOString()]),
                );
          print(
            io,
            json,
            human,
            keys.map((k) => ({
              key_id: k.id,
              kind: k.kind,
              name: k.name,
              prefix: k.display_prefix,
              created_at: k.created_at,
            })),
          );
          return 0;
        });
      case 'delete': {
        const keyId = requireOption(values.id, 'id');
        return withDatabase(config, async (db) => {
          const user = await requireUser(db, email);
          if (!(await deleteKey(db, undefined, { userId: user.id, keyId, now: new Date(), actor: CONSOLE_ACTOR }))) {
            throw new CommandFailedError(`no active key ${keyId} for ${email}`);
          }
          print(io, json, `deleted key ${keyId}`, { key_id: keyId, deleted: true });
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
          const user = await requireUser(db, email);
          const key = await findApiKeyForUser(db, { userId: user.id, keyId: keyId });
          if (!key) throw new CommandFailedError(`no active key ${keyId} for ${email}`);
          const updated =
            (Object.keys(limits).length > 0
              ? await inTransaction(db, async (trx) => {
                  const changed = await setApiKeyLimits(trx, keyId, limits);
                  if (changed) await keyUpdated(trx, CONSOLE_ACTOR, { before: key, after: changed, now: new Date() });
                  return changed;
                })
              : undefined) ?? key;
          const shown = {
            key_id: keyId,
            rpm: updated.rate_limit_rpm ?? 'default',
            tpm: updated.rate_limit_tpm ?? 'default',
            free_per_day: updated.free_requests_per_day ?? 'default',
          };
          print(
            io,
            json,
            `limits of key ${keyId}: rpm ${shown.rpm}, tpm ${shown.tpm}, free requests per day ${shown.free_per_day}`,
            shown,
          );
          return 0;
        });
      }
    }
  },
};
