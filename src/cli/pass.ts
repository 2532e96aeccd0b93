// `modelgate pass grant|revoke|show`: the flat subscription's periods (9.99 USD per month each) and usage.
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import { findUserByEmail } from '../repositories/users.js';
import { grantPass, MAX_PASS_MONTHS as MAX_MONTHS, revokePass, showPass, wirePeriod } from '../services/pass.js';
import { parseOptions, requireEmail, UsageError, withDatabase, type CliIo, type Command } from './command.js';
import { ensureUser } from './users.js';

export { grantPass };

const USAGE = 'usage: modelgate pass grant --email E [--months N] | pass revoke --email E | pass show --email E';

function parseMonths(raw: string | undefined): number {
  if (raw === undefined) return 1;
  const months = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || months < 1 || months > MAX_MONTHS) {
    throw new UsageError(`--months must be a whole number from 1 to ${MAX_MONTHS}, got "${raw}"`);
  }
  return months;
}

async function show(db: Db, config: Config, email: string, io: CliIo): Promise<number> {
  const user = await findUserByEmail(db, email);
  if (!user) {
    io.err(`no user ${email}`);
    return 1;
  }
  io.out(JSON.stringify({ email, ...(await showPass(db, config.passQuota, user.id, new Date())) }));
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
    const revoked = await revokePass(db, user.id, new Date());
    io.out(`revoked ${revoked} subscription period(s) of ${email}`);
    return 0;
  });
};
