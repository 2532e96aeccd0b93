// `modelgate` as an operator runs it: each command and the gateway in a process of its own (the CLI compiled to dist/,
// helpers/built-cli.ts), on an embedded data folder.
import { spawn, type ChildProcess } from 'node:child_process';
import { CLI_ENTRY } from './built-cli.js';
import { freePort } from './serve-process.js';
export { freePort };

export interface ProcessResult {
  code: number | null;
  out: string;
  err: string;
}

/** The environment of every process: nothing from the test runner's own (no DATABASE_URL), a mock-free catalog. */
export function cliEnv(dataDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    LOG_LEVEL: 'info',
    MODELGATE_DATA_DIR: dataDir,
    MODELGATE_CATALOG: 'test/fixtures/catalog/test-catalog.json',
    OPENAI_API_KEY: 'k',
    OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
    // Validators compile on each operation's first request: a test calls a few operations, not all of them.
    MODELGATE_PRECOMPILE_VALIDATORS: 'false',
    ...extra,
  };
}

/** Runs `modelgate <args>` to completion. */
export function runCliProcess(args: string[], env: NodeJS.ProcessEnv): Promise<ProcessResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...CLI_ENTRY, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout!.on('data', (d) => (out += String(d)));
    child.stderr!.on('data', (d) => (err += String(d)));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, out: out.trim(), err: err.trim() }));
  });
}

export interface ServeProcess {
  child: ChildProcess;
  url: string;
  /** Everything written so far to stdout (JSON log lines and the development key text). */
  output(): string;
  exited: Promise<number | null>;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

/** Starts `modelgate serve` on the embedded folder of `env` and resolves once it is up; rejects if it exits first. */
export async function startServeProcess(env: NodeJS.ProcessEnv): Promise<ServeProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [...CLI_ENTRY, 'serve'], {
    env: { ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => (out += String(d)));
  child.stderr!.on('data', (d) => (err += String(d)));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  // Started: it answers HTTP, and it has decided about the development key (a fresh folder gets one, else a hint).
  const started = async () =>
    /Try: curl|no development key created/.test(out) &&
    (await fetch(`${url}/api/v1/models`).then(
      () => true,
      () => false,
    ));
  while (!(await started())) {
    if (child.exitCode !== null) throw new Error(`serve exited with ${child.exitCode}: ${err}${out}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    child,
    url,
    output: () => out,
    exited,
    stop: () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
}
