#!/usr/bin/env node
// Operator CLI: `npx modelgate <command>`. Exit codes: 0 ok, 1 failed, 2 usage or configuration error; with --json an
// error is one JSON object on stderr (src/cli/cli-errors.ts).
// A command is one file in src/cli/ exporting a CommandDefinition, listed once in COMMANDS below.
import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { loadConfig } from './config.js';
import type { CommandDefinition } from './cli/command.js';
import { CLI, reportCliError, UsageError, wantsJson, type CliIo } from './cli/cli-errors.js';
import { closestWord } from './cli/closest-word.js';
import { commandHelp, generalHelp, packageVersion } from './cli/help.js';
import { serveCommand } from './cli/serve.js';
import { migrateCommand } from './cli/migrate.js';
import { usersCommand } from './cli/users.js';
import { keysCommand } from './cli/keys.js';
import { tokensCommand } from './cli/tokens.js';
import { creditsCommand } from './cli/credits.js';
import { conformanceCommand } from './cli/conformance.js';
import { passCommand } from './cli/pass.js';
import { adminKeysCommand } from './cli/admin-keys.js';
import { generationsCommand } from './cli/generations.js';
import { orgsCommand } from './cli/orgs.js';
import { statuslineCommand } from './cli/statusline.js';
import { auditCommand } from './cli/audit.js';
import { aliasesCommand } from './cli/aliases.js';
import { presetsCommand } from './cli/presets.js';
import { encryptionCommand } from './cli/encryption.js';
import { providerKeysCommand } from './cli/provider-keys.js';
import { responsesCommand } from './cli/responses.js';
import { guardrailsCommand } from './cli/guardrails.js';

const COMMANDS: readonly CommandDefinition[] = [
  serveCommand,
  migrateCommand,
  usersCommand,
  keysCommand,
  tokensCommand,
  orgsCommand,
  aliasesCommand,
  presetsCommand,
  statuslineCommand,
  creditsCommand,
  passCommand,
  adminKeysCommand,
  generationsCommand,
  responsesCommand,
  auditCommand,
  providerKeysCommand,
  guardrailsCommand,
  encryptionCommand,
  conformanceCommand,
];

const isHelp = (arg: string) => arg === '--help' || arg === '-h';

export async function runCli(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
  io: CliIo = defaultIo,
): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined) {
    io.err(generalHelp(COMMANDS));
    return 2;
  }
  if (name === '--version' || name === '-v' || name === 'version') {
    io.out(packageVersion());
    return 0;
  }
  const find = (word: string | undefined) => COMMANDS.find((c) => c.name === word);
  if (name === 'help' || isHelp(name)) {
    const topic = find(args[0]);
    io.out(topic ? commandHelp(topic, args.slice(1)) : generalHelp(COMMANDS));
    return 0;
  }
  const command = find(name);
  if (!command) {
    const near = closestWord(
      name,
      COMMANDS.map((c) => c.name),
    );
    const message = near
      ? `unknown command "${name}"; did you mean ${CLI} ${near}?`
      : `unknown command "${name}"; the commands are ${COMMANDS.map((c) => c.name).join(', ')}`;
    return reportCliError(new UsageError(message), io, { json: wantsJson(args) });
  }
  // Answered here, before the configuration is read or anything is opened: help has no side effects.
  if (args.some(isHelp)) {
    io.out(commandHelp(command, args));
    return 0;
  }
  try {
    return await command.run({ args, config: loadConfig(env), io, env });
  } catch (err) {
    return reportCliError(err, io, { json: wantsJson(args), command: command.name });
  }
}

const defaultIo: CliIo = { out: (line) => console.log(line), err: (line) => console.error(line) };

// Run only as the entry point (also through npm's bin symlink), not when imported by tests.
if (process.argv[1] && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) {
  runCli(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
