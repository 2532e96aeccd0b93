// `modelgate provider-keys set|list|delete --org ORG_ID`: an organization's own provider keys, for the operator (who
// stands in for an owner). The key is read from an environment variable, never from the command line (where shell
// history and process listings would keep it), and is shown only masked. Running gateways hear of a change at once.
import { OPERATOR } from '../auth/member-roles.js';
import { ConfigError } from '../config.js';
import { loadCatalog } from '../catalog/load-catalog.js';
import { CONSOLE_ACTOR } from '../services/audit-log.js';
import {
  deleteProviderKey,
  PROVIDER_KEY_MODES,
  providerKeysOf,
  setProviderKey,
  type ProviderKeyRow,
} from '../services/provider-keys.js';
import { asCommand } from './service-refusals.js';
import {
  JSON_OPTION,
  parseOptions,
  print,
  requireOption,
  subcommand,
  UsageError,
  withDatabase,
  type CommandDefinition,
} from './command.js';
import { textTable } from './text-table.js';

const SUBCOMMANDS = ['set', 'list', 'delete'] as const;
const DEFAULT_KEY_ENV = 'PROVIDER_KEY';

function wire(row: ProviderKeyRow) {
  return {
    provider: row.provider,
    key_hint: row.key_hint,
    mode: row.mode,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export const providerKeysCommand: CommandDefinition = {
  name: 'provider-keys',
  usage: [
    [
      `provider-keys set --org ORG_ID --provider P [--mode ${PROVIDER_KEY_MODES.join('|')}] [--key-env VAR] [--json]`,
      "set the organization's own key for a provider, read from $PROVIDER_KEY (or VAR)",
    ],
    ['provider-keys list --org ORG_ID [--json]', "the organization's own provider keys, masked"],
    ['provider-keys delete --org ORG_ID --provider P [--json]', "delete the organization's own key for a provider"],
  ],
  details:
    'Modes: prefer (its key first, the gateway keys when it fails), only (never the gateway keys), fallback (the\n' +
    'gateway keys first, its key when they are rate-limited or down). Keys are stored encrypted under\n' +
    'MODELGATE_ENCRYPTION_KEY, which must be set.',
  async run({ args, config, io, env }) {
    const [sub, rest] = subcommand(args, 'provider-keys', SUBCOMMANDS);
    const { values } = parseOptions(rest, {
      org: { type: 'string' },
      provider: { type: 'string' },
      mode: { type: 'string' },
      'key-env': { type: 'string' },
      ...JSON_OPTION,
    });
    const organizationId = requireOption(values.org, 'org');
    const knownProviders = () =>
      loadCatalog(env)
        .providers()
        .map((p) => p.id);
    return withDatabase(config, async (db) => {
      if (sub === 'list') {
        const rows = await asCommand(providerKeysOf(db, organizationId));
        const human = textTable(
          ['PROVIDER', 'KEY', 'MODE', 'UPDATED'],
          rows.map((r) => [r.provider, r.key_hint, r.mode, r.updated_at.toISOString()]),
        );
        print(io, values.json, human, { data: rows.map(wire) });
        return 0;
      }
      const provider = requireOption(values.provider, 'provider');
      if (sub === 'delete') {
        await asCommand(
          deleteProviderKey(db, OPERATOR, {
            organizationId,
            provider,
            knownProviders: knownProviders(),
            by: CONSOLE_ACTOR,
          }),
        );
        print(io, values.json, `deleted the organization's own ${provider} key`, { deleted: true, provider });
        return 0;
      }
      if (config.encryptionKey === undefined)
        throw new ConfigError('MODELGATE_ENCRYPTION_KEY', 'must be set: provider keys are stored encrypted under it');
      const variable = values['key-env'] ?? DEFAULT_KEY_ENV;
      const key = env[variable]?.trim();
      if (!key) throw new UsageError(`the key is read from $${variable}, which is not set`);
      const row = await asCommand(
        setProviderKey(db, OPERATOR, {
          organizationId,
          provider,
          key,
          mode: values.mode,
          knownProviders: knownProviders(),
          masterKey: config.encryptionKey,
          by: CONSOLE_ACTOR,
        }),
      );
      print(io, values.json, `${provider}: ${row.key_hint} (${row.mode})`, wire(row));
      return 0;
    });
  },
};
