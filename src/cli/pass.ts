// `modelgate pass grant|revoke|show`: the flat subscription's periods (9.99 USD per month each) and usage, of a user's
// personal organization (`--email`) or of an organization (`--org`).
import { CONSOLE_ACTOR } from '../services/audit-log.js';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import { grantPass, MAX_PASS_MONTHS as MAX_MONTHS, revokePass, showPass, wirePeriod } from '../services/pass.js';
import {
  JSON_OPTION,
  parseOptions,
  print,
  subcommand,
  UsageError,
  withDatabase,
  type CommandDefinition,
} from './command.js';
import { checkWalletOption, resolveWallet } from './wallet-option.js';

function parseMonths(raw: string | undefined): number {
  if (raw === undefined) return 1;
  const months = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || months < 1 || months > MAX_MONTHS) {
    throw new UsageError(`--months must be a whole number from 1 to ${MAX_MONTHS}, got "${raw}"`);
  }
  return months;
}

async function show(
  db: Db,
  config: Config,
  owner: { id: string; label: string; json: Record<string, string> },
): Promise<{ human: string; data: unknown }> {
  const now = new Date();
  const { active, periods, usage } = await showPass(db, config.passQuota, owner.id, now);
  const data = { ...owner.json, active, periods, usage };
  const lines = [
    usage?.subscription
      ? `subscription of ${owner.label}: active, current period ends ${usage.subscription.period_end}`
      : `subscription of ${owner.label}: not active`,
  ];
  for (const p of periods) lines.push(`  period ${p.id}: ${p.period_start} → ${p.period_end}`);
  if (usage) {
    lines.push('usage at reference rates (USD):');
    for (const [label, w] of [
      ['5 hours', usage.five_hour],
      ['week', usage.weekly],
      ['month', usage.monthly],
    ] as const) {
      lines.push(`  ${label.padEnd(8)} ${w.used} of ${w.limit} used, ${w.remaining} left, resets ${w.resets_at}`);
    }
  }
  return { human: lines.join('\n'), data };
}

export const passCommand: CommandDefinition = {
  name: 'pass',
  usage: [
    [
      'pass grant (--email E | --org ORG_ID) [--months N] [--json]',
      'add N months (default 1) of the 9.99 USD flat subscription',
    ],
    ['pass revoke (--email E | --org ORG_ID) [--json]', 'end the current and prepaid subscription periods'],
    ['pass show (--email E | --org ORG_ID) [--json]', 'show subscription periods and quota usage'],
  ],
  async run({ args, config, io }) {
    const [sub, rest] = subcommand(args, 'pass', ['grant', 'revoke', 'show']);
    const { values } = parseOptions(rest, {
      email: { type: 'string' },
      org: { type: 'string' },
      months: { type: 'string' },
      ...JSON_OPTION,
    });
    const wallet = checkWalletOption(values);
    const months = sub === 'grant' ? parseMonths(values.months) : 0;
    return withDatabase(config, async (db) => {
      const owner = await resolveWallet(db, wallet);
      if (sub === 'show') {
        const { human, data } = await show(db, config, owner);
        print(io, values.json, human, data);
        return 0;
      }
      if (sub === 'grant') {
        const rows = await grantPass(db, owner.id, months, new Date(), CONSOLE_ACTOR);
        const until = rows[rows.length - 1].period_end.toISOString();
        print(io, values.json, `subscription of ${owner.label}: ${months} month(s) added, active until ${until}`, {
          ...owner.json,
          periods: rows.map(wirePeriod),
        });
        return 0;
      }
      const revoked = await revokePass(db, { userId: owner.id, now: new Date(), by: CONSOLE_ACTOR });
      print(io, values.json, `revoked ${revoked} subscription period(s) of ${owner.label}`, { ...owner.json, revoked });
      return 0;
    });
  },
};
