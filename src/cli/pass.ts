// `modelgate pass grant|revoke|show`: the flat subscription's periods (9.99 USD per month each) and usage.
import { newId } from '../auth/secrets.js';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import type { SubscriptionRow } from '../db/tables/subscriptions.js';
import { PASS_PLAN, PASS_PRICE_NANOS } from '../pass/plan.js';
import { passUsageReport, toWirePassUsage } from '../pass/usage-report.js';
import { addMonthsUtc } from '../pass/windows.js';
import { insertSubscription, listLiveSubscriptions, revokeSubscriptions } from '../repositories/subscriptions.js';
import { findUserByEmail } from '../repositories/users.js';
import { parseOptions, requireEmail, UsageError, withDatabase, type CliIo, type Command } from './command.js';
import { ensureUser } from './users.js';

const USAGE = 'usage: modelgate pass grant --email E [--months N] | pass revoke --email E | pass show --email E';
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

async function show(db: Db, config: Config, email: string, io: CliIo): Promise<number> {
  const user = await findUserByEmail(db, email);
  if (!user) {
    io.err(`no user ${email}`);
    return 1;
  }
  const now = new Date();
  const report = await passUsageReport({ db, now: () => now, passQuota: config.passQuota }, user.id);
  io.out(JSON.stringify({
    email,
    active: report !== undefined,
    periods: (await listLiveSubscriptions(db, user.id, now)).map(wirePeriod),
    usage: report ? toWirePassUsage(report) : null,
  }));
  return 0;
}

export const passCommand: Command = async ({ args, config, io }) => {
  const [sub, ...rest] = args;
  const { values } = parseOptions(rest, { email: { type: 'string' }, months: { type: 'string' }, json: { type: 'boolean' } });
  if (sub !== 'grant' && sub !== 'revoke' && sub !== 'show') throw new UsageError(USAGE);
  const email = requireEmail(values.email);
  const months = sub === 'grant' ? parseMonths(values.months) : 0;
  return withDatabase(config, async (db) => {
    if (sub === 'show') return show(db, config, email, io);
    if (sub === 'grant') {
      const user = await ensureUser(db, email);
      const rows = await grantPass(db, user.id, months, new Date());
      const until = rows[rows.length - 1].period_end.toISOString();
      io.out(values.json ? JSON.stringify({ email, periods: rows.map(wirePeriod) }) : `subscription of ${email}: ${months} month(s) added, active until ${until}`);
      return 0;
    }
    const user = await findUserByEmail(db, email);
    if (!user) {
      io.err(`no user ${email}`);
      return 1;
    }
    const revoked = await revokeSubscriptions(db, user.id, new Date());
    io.out(`revoked ${revoked} subscription period(s) of ${email}`);
    return 0;
  });
};
