// Shared plumbing for operator commands: argument parsing, a database session, and a usage error type.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { Config } from '../config.js';
import { openDatabase } from '../db/connect.js';
import { migrateToLatest } from '../db/migrate.js';
import type { Db } from '../db/database.js';

export class UsageError extends Error {}

export interface CliIo {
  out: (line: string) => void;
  err: (line: string) => void;
}

export interface CommandContext {
  args: string[];
  config: Config;
  io: CliIo;
}

export type Command = (ctx: CommandContext) => Promise<number>;

/** `--usd -2.5` would read "-2.5" as an option; glue negative numbers to their option first. */
function joinNegativeNumbers(args: string[]): string[] {
  const joined: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i].startsWith('--') && !args[i].includes('=') && /^-\d/.test(args[i + 1] ?? '')) {
      joined.push(`${args[i]}=${args[i + 1]}`);
      i++;
    } else joined.push(args[i]);
  }
  return joined;
}

export function parseOptions<T extends NonNullable<ParseArgsConfig['options']>>(args: string[], options: T) {
  try {
    return parseArgs({ args: joinNegativeNumbers(args), options, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

export function requireOption(value: unknown, name: string): string {
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${name} is required`);
  return value.trim();
}

/** Opens the configured database, brings it up to date and runs `fn` with it. */
export async function withDatabase<T>(config: Config, fn: (db: Db) => Promise<T>): Promise<T> {
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
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
