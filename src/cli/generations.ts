// `modelgate generations prune`: deletes generation records older than N whole UTC days, in batches. Their running
// totals (key usage, activity, usage report, key limits) and their ledger rows are kept (docs/ledger-and-retention.md).
import { pruneGenerations } from '../services/generation-retention.js';
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

export const generationsCommand: CommandDefinition = {
  name: 'generations',
  usage: [
    [
      'generations prune --older-than-days N [--json]',
      'delete generation records older than N UTC days (totals and ledger stay)',
    ],
  ],
  details:
    "Records created before the UTC midnight N days before today are deleted; today's are always kept.\n" +
    'MODELGATE_GENERATION_RETENTION_DAYS makes every running gateway do the same every hour.',
  async run({ args, config, io }) {
    const [, rest] = subcommand(args, 'generations', ['prune']);
    const { values } = parseOptions(rest, { 'older-than-days': { type: 'string' }, ...JSON_OPTION });
    const raw = requireOption(values['older-than-days'], 'older-than-days');
    if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > 36_500) {
      throw new UsageError(`--older-than-days must be a whole number from 1 to 36500, got "${raw}"`);
    }
    return withDatabase(config, async (db) => {
      const { cutoff, deleted } = await pruneGenerations(db, { days: Number(raw), now: new Date() });
      print(io, values.json, `deleted ${deleted} generation records created before ${cutoff.toISOString()}`, {
        deleted,
        cutoff: cutoff.toISOString(),
      });
      return 0;
    });
  },
};
