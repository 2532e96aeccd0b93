#!/usr/bin/env node
// Operator CLI: `modelgate <command>`. Exit codes: 0 ok, 1 failed, 2 usage or configuration error.
import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { loadConfig, ConfigError } from './config.js';
import { UsageError, type Command, type CliIo } from './cli/command.js';
import { serveCommand, migrateCommand } from './cli/serve.js';
import { usersCommand } from './cli/users.js';
import { keysCommand } from './cli/keys.js';
import { tokensCommand } from './cli/tokens.js';
import { creditsCommand } from './cli/credits.js';
import { conformanceCommand } from './cli/conformance.js';
import { passCommand } from './cli/pass.js';
import { adminKeysCommand } from './cli/admin-keys.js';
import { ProviderConfigError } from './providers/registry.js';
import { CatalogError } from './catalog/catalog-error.js';

const COMMANDS: Record<string, Command> = {
  serve: serveCommand,
  migrate: migrateCommand,
  users: usersCommand,
  keys: keysCommand,
  tokens: tokensCommand,
  credits: creditsCommand,
  conformance: conformanceCommand,
  pass: passCommand,
  'admin-keys': adminKeysCommand,
};

const HELP = `modelgate — LLM model gateway

  modelgate serve                                   start the gateway (PORT, HOST, DATABASE_URL, ...)
  modelgate migrate                                 bring the database schema up to date
  modelgate users create --email E                  create a user
  modelgate keys create --email E [--name N] [--json]   create an API key (creates the user if needed)
  modelgate keys list --email E [--json]            list a user's active keys
  modelgate keys delete --email E --id KEY_ID       revoke a key
  modelgate keys limits --email E --id KEY_ID [--rpm N] [--tpm N] [--free-per-day N]   per-key limits ("default" resets)
  modelgate tokens create --email E [--json]        create an account auth token
  modelgate credits add --email E --usd N           add (or, negative, remove) credits
  modelgate credits show --email E                  show a user's credit account
  modelgate conformance --base-url URL [--api-key KEY] [--runs N] [--seed S] [--model M] [--timeout-seconds T]
                                                    property-based conformance run against a deployment (--help)
  modelgate pass grant --email E [--months N]       add N months (default 1) of the 9.99 USD flat subscription
  modelgate pass revoke --email E                   end a user's current and prepaid subscription periods
  modelgate pass show --email E                     show subscription periods and quota usage (JSON)
  modelgate admin-keys create --name N [--json]     create an admin key for the operator API (/api/v1/admin)
  modelgate admin-keys list [--json]                list active admin keys
  modelgate admin-keys delete --id ADMIN_KEY_ID     revoke an admin key`;

export async function runCli(argv: string[], env: NodeJS.ProcessEnv = process.env, io: CliIo = defaultIo): Promise<number> {
  const [name, ...args] = argv;
  if (!name || name === 'help' || name === '--help' || name === '-h') {
    io.out(HELP);
    return name ? 0 : 2;
  }
  const command = COMMANDS[name];
  if (!command) {
    io.err(`unknown command "${name}"\n\n${HELP}`);
    return 2;
  }
  try {
    return await command({ args, config: loadConfig(env), io });
  } catch (err) {
    if (err instanceof UsageError || err instanceof ConfigError || err instanceof ProviderConfigError || err instanceof CatalogError) {
      io.err(err.message);
      return 2;
    }
    io.err(`error: ${(err as Error).message}`);
    return 1;
  }
}

const defaultIo: CliIo = { out: (line) => console.log(line), err: (line) => console.error(line) };

// Run only as the entry point (also through npm's bin symlink), not when imported by tests.
if (process.argv[1] && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) {
  runCli(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
