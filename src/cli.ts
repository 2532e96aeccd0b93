#!/usr/bin/env node
// Operator CLI: `npx modelgate <command>`. Exit codes: 0 ok, 1 failed, 2 usage or configuration error; with --json an
// error is one JSON object on stderr (src/cli/cli-errors.ts).
// A command is one file in src/cli/ exporting a CommandDefinition, listed once in COMMANDS below (name and module).
import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { loadConfig } from './config.js';
import type { CommandDefinition } from './cli/command.js';
import { CLI, reportCliError, UsageError, wantsJson, type CliIo } from './cli/cli-errors.js';
import { closestWord } from './cli/closest-word.js';

// Each command's module is imported only when that command runs (or help lists them all): an agent's status line
// runs `modelgate statusline` after every message, under a timeout, and should not load the server to print a line.
const COMMANDS: ReadonlyArray<{ name: string; load: () => Promise<CommandDefinition> }> = [
  { name: 'serve', load: async () => (await import('./cli/serve.js')).serveCommand },
  { name: 'migrate', load: async () => (await import('./cli/migrate.js')).migrateCommand },
  { name: 'users', load: async () => (await import('./cli/users.js')).usersCommand },
  { name: 'keys', load: async () => (await import('./cli/keys.js')).keysCommand },
  { name: 'tokens', load: async () => (await import('./cli/tokens.js')).tokensCommand },
  { name: 'orgs', load: async () => (await import('./cli/orgs.js')).orgsCommand },
  { name: 'aliases', load: async () => (await import('./cli/aliases.js')).aliasesCommand },
  { name: 'presets', load: async () => (await import('./cli/presets.js')).presetsCommand },
  { name: 'statusline', load: async () => (await import('./cli/statusline.js')).statuslineCommand },
  { name: 'credits', load: async () => (await import('./cli/credits.js')).creditsCommand },
  { name: 'pass', load: async () => (await import('./cli/pass.js')).passCommand },
  { name: 'admin-keys', load: async () => (await import('./cli/admin-keys.js')).adminKeysCommand },
  { name: 'generations', load: async () => (await import('./cli/generations.js')).generationsCommand },
  { name: 'responses', load: async () => (await import('./cli/responses.js')).responsesCommand },
  { name: 'audit', load: async () => (await import('./cli/audit.js')).auditCommand },
  { name: 'provider-keys', load: async () => (await import('./cli/provider-keys.js')).providerKeysCommand },
  { name: 'guardrails', load: async () => (await import('./cli/guardrails.js')).guardrailsCommand },
  { name: 'encryption', load: async () => (await import('./cli/encryption.js')).encryptionCommand },
  { name: 'conformance', load: async () => (await import('./cli/conformance.js')).conformanceCommand },
];

const isHelp = (arg: string) => arg === '--help' || arg === '-h';

export async function runCli(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
  io: CliIo = defaultIo,
): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined) {
    const { generalHelp } = await import('./cli/help.js');
    io.err(generalHelp(await allCommands()));
    return 2;
  }
  if (name === '--version' || name === '-v' || name === 'version') {
    const { packageVersion } = await import('./cli/help.js');
    io.out(packageVersion());
    return 0;
  }
  const find = (word: string | undefined) => COMMANDS.find((c) => c.name === word);
  if (name === 'help' || isHelp(name)) {
    const { commandHelp, generalHelp } = await import('./cli/help.js');
    const topic = find(args[0]);
    io.out(topic ? commandHelp(await topic.load(), args.slice(1)) : generalHelp(await allCommands()));
    return 0;
  }
  const entry = find(name);
  if (!entry) {
    const near = closestWord(
      name,
      COMMANDS.map((c) => c.name),
    );
    const message = near
      ? `unknown command "${name}"; did you mean ${CLI} ${near}?`
      : `unknown command "${name}"; the commands are ${COMMANDS.map((c) => c.name).join(', ')}`;
    return reportCliError(new UsageError(message), io, { json: wantsJson(args) });
  }
  const command = await entry.load();
  // Answered here, before the configuration is read or anything is opened: help has no side effects.
  if (args.some(isHelp)) {
    const { commandHelp } = await import('./cli/help.js');
    io.out(commandHelp(command, args));
    return 0;
  }
  try {
    return await command.run({ args, config: loadConfig(env), io, env });
  } catch (err) {
    return reportCliError(err, io, { json: wantsJson(args), command: command.name });
  }
}

/** Every command, in the order help lists them. */
function allCommands(): Promise<CommandDefinition[]> {
  return Promise.all(COMMANDS.map((c) => c.load()));
}

const defaultIo: CliIo = { out: (line) => console.log(line), err: (line) => console.error(line) };

// Run only as the entry point (also through npm's bin symlink), not when imported by tests.
if (process.argv[1] && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) {
  runCli(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
