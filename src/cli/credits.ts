import { usdToNanos, nanosToUsd } from '../billing/money.js';
import { adjustCredits, creditAccount } from '../services/credits.js';
import { findUserByEmail } from '../repositories/users.js';
import { parseOptions, requireEmail, requireOption, UsageError, withDatabase, type Command } from './command.js';
import { ensureUser } from './users.js';

const USAGE = 'usage: modelgate credits add --email E --usd N [--note TEXT] | credits show --email E';

export const creditsCommand: Command = async ({ args, config, io }) => {
  const [sub, ...rest] = args;
  const { values } = parseOptions(rest, { email: { type: 'string' }, usd: { type: 'string' }, note: { type: 'string' } });
  const email = requireEmail(values.email);
  if (sub === 'show') {
    return withDatabase(config, async (db) => {
      const user = await findUserByEmail(db, email);
      if (!user) {
        io.err(`no user ${email}`);
        return 1;
      }
      const account = await creditAccount(db, user.id);
      io.out(JSON.stringify({
        balance: nanosToUsd(account.balanceNanos),
        reserved: nanosToUsd(account.reservedNanos),
        total_credits: nanosToUsd(account.totalGrantedNanos),
        total_usage: nanosToUsd(account.totalUsedNanos),
      }));
      return 0;
    });
  }
  if (sub !== 'add') throw new UsageError(USAGE);
  let amountNanos: bigint;
  try {
    amountNanos = usdToNanos(requireOption(values.usd, 'usd'));
  } catch (err) {
    throw new UsageError(`--usd must be a decimal amount of USD: ${(err as Error).message}`);
  }
  if (amountNanos === 0n) throw new UsageError('--usd must not be zero');
  return withDatabase(config, async (db) => {
    const user = await ensureUser(db, email);
    const result = await adjustCredits(db, { userId: user.id, amountNanos, note: values.note ?? 'cli' });
    io.out(`balance of ${email}: ${nanosToUsd(result.balanceNanos)} USD`);
    return 0;
  });
};
