// `modelgate encryption rotate`: re-wraps every sealed secret (organizations' provider keys, webhook signing secrets)
// under the current master key, MODELGATE_ENCRYPTION_KEY, reading those sealed under MODELGATE_ENCRYPTION_KEY_PREVIOUS.
// Gateways keep serving meanwhile (docs/configuration.md#rotating-the-master-key says in which order).
import { ConfigError } from '../config.js';
import { rotateEncryption } from '../services/encryption-rotation.js';
import {
  CommandFailedError,
  JSON_OPTION,
  parseOptions,
  print,
  subcommand,
  withDatabase,
  type CommandDefinition,
} from './command.js';

export const encryptionCommand: CommandDefinition = {
  name: 'encryption',
  usage: [['encryption rotate [--json]', 're-wrap every stored secret under the current master key']],
  details:
    'Set MODELGATE_ENCRYPTION_KEY to the new master key and MODELGATE_ENCRYPTION_KEY_PREVIOUS to the old one (on\n' +
    'every gateway first, so each reads both), then run this once. Only the data keys are re-wrapped; the secrets\n' +
    'themselves are never shown. Exits 1, naming them, when some secret is sealed under a key that is not configured.',
  async run({ args, config, io }) {
    const [, rest] = subcommand(args, 'encryption', ['rotate'] as const);
    const { values } = parseOptions(rest, JSON_OPTION);
    const current = config.encryptionKey;
    if (current === undefined)
      throw new ConfigError('MODELGATE_ENCRYPTION_KEY', 'must be set to the master key to rotate to');
    const report = await withDatabase(config, (db) =>
      rotateEncryption(db, { current, previous: config.previousEncryptionKeys }),
    );
    const { providerKeys, webhookSecrets } = report.rewrapped;
    print(
      io,
      values.json,
      `re-wrapped ${providerKeys} provider keys and ${webhookSecrets} webhook secrets under key ${current.id}; ` +
        `${report.current} already under it`,
      {
        key_id: current.id,
        provider_keys: providerKeys,
        webhook_secrets: webhookSecrets,
        already_current: report.current,
        unreadable: report.unreadable.map((u) => ({ kind: u.kind, id: u.id, key_id: u.keyId ?? null })),
      },
    );
    if (report.unreadable.length > 0)
      throw new CommandFailedError(
        `${report.unreadable.length} secrets are sealed under keys that are not configured (${[
          ...new Set(report.unreadable.map((u) => u.keyId)),
        ].join(', ')}): add them to MODELGATE_ENCRYPTION_KEY_PREVIOUS and run again (${report.unreadable
          .map((u) => `${u.kind} ${u.id}`)
          .join(', ')})`,
      );
    return 0;
  },
};
