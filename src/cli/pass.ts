// `modelgate pass grant|revoke|show`: the flat subscription's periods (9.99 USD per month each) and usage.
import { newId } from '../auth/secrets.js';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import type { SubscriptionRow } from '../db/tables/subscriptions.js';
import { PASS_PLAN, PASS_PRICE_NANOS } from '../pass/plan.js';
import { passUsageReport, toWirePassUsage } from '../pass/usage-report.js';
import { addMonthsUtc } from '../pass/windows.js';
import { insertSubscription, listLiveSubscriptions, revokeSubscriptions } from '../repositories/subscriptions.js';
import {
  JSON_OPTION, parseOptions, print, requireEmail, requireUser, subcommand, UsageError, withDatabase, type CommandDefinition,
} from './command.js';

const MAX_MONTHS = 120;

function wirePeriod(row: SubscriptionRow) {
  return { id: row.id, period_start: row.period_start.toISOString(), period_end: row.period_end.toISOString() };
}

function parseMonths(raw: string | undefined): number {
  if (raw === undefined) return 1;
  const months = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || months < 1 || months > MAX_MONTHS) {
    throw new UsageError(`--months must be a whole number from 1 to ${MAX_MONTHS}, got "${raw}"`);
  }
  return months;
}

/**
 * Adds `months` monthly periods, chained after the user's last live period (or starting now), each
 * computed from the same anchor so month lengths never drift.
 */
export async function grantPass(db: Db, userId: string, months: number, now: Date): Promise<SubscriptionRow[]> {
  return db.transaction().execute(async (trx) => {
    const live = await listLiveSubscriptions(trx, userId, now);
    const anchor = live.reduce((latest, row) => (row.period_end > latest ? row.period_end : latest), now);
    const rows: SubscriptionRow[] = [];
    for (let k = 0; k < months; k++) {
      rows.push(await insertSubscription(trx, {
        id: newId('sub_'),
        user_id: userId,
        plan: PASS_PLAN,
        price_nanos: PASS_PRICE_NANOS,
        period_start: addMonthsUtc(anchor, k),
        period_end: addMonthsUtc(anchor, k + 1),
      }));
    }
    return rows;
  });
}

async function show(db: Db, config: Config, email: string): Promise<{ human: string; data: unknown }> {
  const user = await requireUser(db, email);
  const now = new Date();
  const report = await passUsageReport({ db, now: () => now, passQuota: config.passQuota }, user.id);
  const periods = (await listLiveSubscriptions(db, user.id, now)).map(wirePeriod);
  const usage = report ? toWirePassUsage(report) : null;
  const data = { email, active: report !== undefined, periods, usage };
  const lines = [usage ? `subscription of ${email}: active, current period ends ${usage.subscription.period_end}` : `subscription of ${email}: not active`];
  for (const p of periods) lines.push(`  period ${p.id}: ${p.period_start} → ${p.period_end}`);
  if (usage) {
    lines.push('usage at reference rates (USD):');
    for (const [label, w] of [['5 hours', usage.five_hour], ['week', usage.weekly], ['month', usage.monthly]] as const) {
      lines.push(`  ${label.padEnd(8)} ${w.used} of ${w.limit} used, ${w.remaining} left, resets ${w.resets_at}`);
    }
  }
  return { human: lines.join('\n'), data };
}

export const passCommand: CommandDefinition = {
  name: 'pass',
  usage: [
    ['pass grant --email E [--months N] [--json]', 'add N months (default 1) of the 9.99 USD flat subscription'],
    ['pass revoke --email E [--json]', "end a user's current and prepaid subscription periods"],
    ['pass show --email E [--json]', 'show subscription periods and quota usage'],
  ],
  async run({ args, config, io }) {
    const [sub, rest] = subcommand(args, 'pass', ['grant', 'revoke', 'show']);
    const { values } = parseOptions(rest, { email: { type: 'string' }, months: { type: 'string' }, ...JSON_OPTION });
    const email = requireEmail(values.email);
    const months = sub === 'grant' ? parseMonths(values.months) : 0;
    return withDatabase(config, async (db) => {
      if (sub === 'show') {
        const { human, data } = await show(db, config, email);
        print(io, values.json, human, data);
        return 0;
      }
      const user = await requireUser(db, email);
      if (sub === 'grant') {
        const rows = await grantPass(db, user.id, months, new Date());
        const until = rows[rows.length - 1].period_end.toISOString();
        print(io, values.json, `subscription of ${email}: ${months} month(s) added, active until ${until}`, { email, periods: rows.map(wirePeriod) });
        return 0;
      }
      const revoked = await revokeSubscriptions(db, user.id, new Date());
      print(io, values.json, `revoked ${revoked} subscription period(s) of ${email}`, { email, revoked });
      return 0;
    });
  },
};
