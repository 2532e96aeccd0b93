// `modelgate credits add|show`: an organization's prepaid credit account, named by a user's e-mail (its personal
// organization) or by `--org` (USD at this edge, nano-dollars inside).
import { CONSOLE_ACTOR } from '../services/audit-log.js';
import { usdToNanos, nanosToUsd } from '../core/money.js';
import { adjustCredits, creditAccount } from '../services/credits.js';
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
import { checkWalletOption, resolveWallet } from './wallet-option.js';

const MAX_ADJUST_NANOS = 1_000_000_000n * 1_000_000_000n;

export const creditsCommand: CommandDefinition = {
  name: 'credits',
  usage: [
    [
      'credits add (--email E | --org ORG_ID) --usd N [--note TEXT] [--json]',
      "add (or, negative, remove) credits of a user's personal organization or of an organization",
    ],
    ['credits show (--email E | --org ORG_ID) [--json]', 'show a credit account'],
  ],
  async run({ args, config, io }) {
    const [sub, rest] = subcommand(args, 'credits', ['add', 'show']);
    const { values } = parseOptions(rest, {
      email: { type: 'string' },
      org: { type: 'string' },
      usd: { type: 'string' },
      note: { type: 'string' },
      ...JSON_OPTION,
    });
    const wallet = checkWalletOption(values);
    if (sub === 'show') {
      return withDatabase(config, async (db) => {
        const owner = await resolveWallet(db, wallet);
        const account = await creditAccount(db, owner.id);
        const shown = {
          balance: nanosToUsd(account.balanceNanos),
          reserved: nanosToUsd(account.reservedNanos),
          total_credits: nanosToUsd(account.totalGrantedNanos),
          total_usage: nanosToUsd(account.totalUsedNanos),
        };
        const human =
          `credits of ${owner.label}: balance ${shown.balance} USD (${shown.reserved} USD reserved by requests in flight)\n` +
          `granted ${shown.total_credits} USD in total, used ${shown.total_usage} USD`;
        print(io, values.json, human, shown);
        return 0;
      });
    }
    const raw = requireOption(values.usd, 'usd');
    let amountNanos: bigint;
    try {
      amountNanos = usdToNanos(raw);
    } catch {
      throw new UsageError(
        `--usd must be a USD amount like 5 or 0.25 (negative, like -2, removes credit), got "${raw}"`,
      );
    }
    if (amountNanos === 0n) throw new UsageError('--usd must not be zero');
    // The operator API's bound (AdjustCreditsRequest.amount): a typo of a few zeros is refused, not recorded.
    if (amountNanos > MAX_ADJUST_NANOS || amountNanos < -MAX_ADJUST_NANOS)
      throw new UsageError(`--usd must be between -1000000000 and 1000000000, got "${raw}"`);
    return withDatabase(config, async (db) => {
      const owner = await resolveWallet(db, wallet);
      // A removal recalls the credit that running gateways lease (they hear it through NOTIFY) instead of failing.
      const result = await adjustCredits(
        { db },
        { userId: owner.id, amountNanos, note: values.note ?? 'cli', by: CONSOLE_ACTOR },
      );
      const balance = nanosToUsd(result.balanceNanos);
      print(io, values.json, `balance of ${owner.label}: ${balance} USD`, {
        ...owner.json,
        added: nanosToUsd(amountNanos),
        balance,
      });
      return 0;
    });
  },
};
