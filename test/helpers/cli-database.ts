// The operator CLI against a real database of its own for one test file: a PostgreSQL scratch database when a
// server answers (fast), else an embedded PGlite folder. Registers its own beforeAll/afterAll.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { runCli } from '../../src/cli.js';
import { postgresAvailability } from './databases.js';
import { createScratchDatabase, type ScratchDatabase } from './postgres-server.js';

export interface CliRun {
  code: number;
  out: string;
  err: string;
}

/** `env`: more variables for every run (e.g. a setting under test). */
export function useCliDatabase(extraEnv: Record<string, string> = {}): (...argv: string[]) => Promise<CliRun> {
  let env: NodeJS.ProcessEnv = {};
  let scratch: ScratchDatabase | undefined;
  let dataDir: string | undefined;
  beforeAll(async () => {
    const pg = postgresAvailability();
    if (pg.available) {
      scratch = await createScratchDatabase(pg.url);
      env = { DATABASE_URL: scratch.url, LOG_LEVEL: 'silent', ...extraEnv };
    } else {
      dataDir = mkdtempSync(path.join(tmpdir(), 'modelgate-cli-'));
      env = { MODELGATE_DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...extraEnv };
    }
  });
  afterAll(async () => {
    await scratch?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });
  return async (...argv) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(argv, env, { out: (l) => out.push(l), err: (l) => err.push(l) });
    return { code, out: out.join('\n'), err: err.join('\n') };
  };
}
