// How a command fails: the two error types commands throw, and the one place that turns any error into what the
// operator sees. Text by default (the message, and for a usage error where its help is); with --json exactly one
// JSON object on stderr, {"error": {"type", "message", "exit_code"}}, and nothing on stdout, so a script that reads
// stdout never mistakes an error for a result.
import { ConfigError } from '../config.js';
import { ProviderConfigError } from '../providers/provider-config-error.js';
import { CatalogError } from '../catalog/catalog-error.js';
import { DataFolderBusyError } from '../db/data-folder/data-folder-lock.js';

/** How the operator runs the CLI from a checkout (npm puts the package's bin there): every hint names it so. */
export const CLI = 'npx modelgate';

/** Bad arguments: the message (and where the usage is) go to stderr, exit code 2. */
export class UsageError extends Error {}

/** The command ran and could not do what was asked (unknown user, no such key): the message goes to stderr, exit 1. */
export class CommandFailedError extends Error {}

export type CliErrorType = 'usage' | 'configuration' | 'data_folder_busy' | 'failed' | 'internal';

export interface CliIo {
  out: (line: string) => void;
  err: (line: string) => void;
  /** Everything on standard input (a status line command's JSON); the process's own when absent. */
  stdin?: () => Promise<string>;
}

function classify(err: unknown): { type: CliErrorType; exitCode: number; message: string } {
  const message = err instanceof Error ? err.message : String(err);
  if (err instanceof UsageError) return { type: 'usage', exitCode: 2, message };
  if (err instanceof ConfigError || err instanceof ProviderConfigError || err instanceof CatalogError)
    return { type: 'configuration', exitCode: 2, message };
  if (err instanceof DataFolderBusyError) return { type: 'data_folder_busy', exitCode: 2, message };
  if (err instanceof CommandFailedError) return { type: 'failed', exitCode: 1, message };
  return { type: 'internal', exitCode: 1, message };
}

/** Writes the error for `command` (its name, for the usage hint) and returns the exit code. */
export function reportCliError(err: unknown, io: CliIo, options: { json: boolean; command?: string }): number {
  const { type, exitCode, message } = classify(err);
  if (options.json) {
    io.err(JSON.stringify({ error: { type, message, exit_code: exitCode } }));
  } else if (type === 'usage') {
    io.err(`${message}\n(see ${CLI}${options.command ? ` ${options.command}` : ''} --help)`);
  } else {
    io.err(type === 'internal' ? `error: ${message}` : message);
  }
  return exitCode;
}

/** `--json` anywhere among the arguments, also when they fail to parse: errors then come as JSON too. */
export function wantsJson(args: readonly string[]): boolean {
  return args.some((arg) => arg === '--json' || arg.startsWith('--json='));
}
