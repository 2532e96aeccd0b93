// Shared plumbing for operator commands: the shape of a command, argument parsing (parse-options.ts), a database
// session, the output rule (human text by default, one JSON document with --json) and the two error types (usage →
// exit 2, failed → 1; cli-errors.ts reports them). A new command is one file exporting a CommandDefinition and one
// line in src/cli.ts.
import type { Config } from '../config.js';
import { openCommandDatabase } from '../db/data-folder/open-data-folder.js';
import { migrateToLatest } from '../db/migrate.js';
import type { Db } from '../db/database.js';
import { findUserByEmail } from '../repositories/users.js';
import { CLI, CommandFailedError, UsageError, type CliIo } from './cli-errors.js';
import { closestWord } from './closest-word.js';

export { CLI, CommandFailedError, UsageError, type CliIo } from './cli-errors.js';
export { JSON_OPTION, parseOptions } from './parse-options.js';

export interface CommandContext {
  /** The arguments after the command's name (subcommand first, if it has any). */
  args: string[];
  config: Config;
  io: CliIo;
  /** The environment the command runs in (a command that reads a variable named by an option). */
  env: NodeJS.ProcessEnv;
}

export type Command = (ctx: CommandContext) => Promise<number>;

export interface CommandDefinition {
  /** The word after `modelgate`. */
  name: string;
  /**
   * One entry per form, `[synopsis, what it does]`, the synopsis starting with the name and the subcommand
   * (`keys create --email E [--json]`). `modelgate --help` lists every entry, `modelgate keys --help` this command's,
   * `modelgate keys create --help` the ones of that subcommand.
   */
  usage: Array<[synopsis: string, summary: string]>;
  /** More help (options explained), shown by `modelgate <name> --help`. */
  details?: string;
  /** Never called with --help/-h among the arguments: src/cli.ts answers those. */
  run: Command;
}

/** Splits `[sub, ...rest]` and checks the subcommand; the error names the closest valid one, or lists them. */
export function subcommand<S extends string>(args: string[], name: string, valid: readonly S[]): [S, string[]] {
  const [sub, ...rest] = args;
  if (!valid.includes(sub as S)) {
    const near = sub === undefined || sub.startsWith('-') ? undefined : closestWord(sub, valid);
    const got = sub === undefined ? 'none' : `"${sub}"`;
    throw new UsageError(
      near
        ? `${CLI} ${name} has no subcommand ${got}; did you mean ${CLI} ${name} ${near}?`
        : `${CLI} ${name} needs a subcommand (${valid.join(', ')}), got ${got}`,
    );
  }
  return [sub as S, rest];
}

export function requireOption(value: unknown, name: string): string {
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${name} is required`);
  return value.trim();
}

/**
 * Opens the configured database, brings it up to date and runs `fn` with it. The embedded database is reached through
 * the gateway that serves it, if one runs (src/db/data-folder/): never opened a second time.
 */
export async function withDatabase<T>(config: Config, fn: (db: Db) => Promise<T>): Promise<T> {
  const database = await openCommandDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    await migrateToLatest(database.db);
    return await fn(database.db);
  } finally {
    await database.close();
  }
}

export const EMAIL = /^[^\s@]+@[^\s@]+$/;

export function requireEmail(value: unknown): string {
  const email = requireOption(value, 'email').toLowerCase();
  if (!EMAIL.test(email)) throw new UsageError(`--email must be an e-mail address, got "${value}"`);
  return email;
}

/** Commands act on existing users only: a mistyped address must fail, not create a second account. */
export async function requireUser(db: Db, email: string) {
  const user = await findUserByEmail(db, email);
  if (!user)
    throw new CommandFailedError(`no user ${email}: create it first with "${CLI} users create --email ${email}"`);
  return user;
}

/** The one output rule: human text by default, one JSON document (a single line) with --json. */
export function print(io: CliIo, json: boolean | undefined, human: string, data: unknown): void {
  io.out(json ? JSON.stringify(data) : human);
}
