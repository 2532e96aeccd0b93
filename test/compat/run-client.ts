// Runs one client turn headless: its own process group, stdin from /dev/null (Codex and Claude Code read a piped
// stdin), a hard timeout, and only loopback reachable (proxies at a dead port take anything else, as the Codex
// test does). PATH stays so the clients find git, node and their own helpers.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { CLIENT_BIN_DIR as BIN } from './client-packages.js';
import type { Launch } from './clients/driver.js';

const DEAD_PROXY = 'http://127.0.0.1:9';

export interface ProcessResult {
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  ms: number;
}

export function isolatedEnv(home: string, extra: Record<string, string>): Record<string, string> {
  return {
    PATH: `${BIN}:${process.env.PATH ?? ''}`,
    HOME: home,
    TMPDIR: join(home, 'tmp'),
    LANG: 'C.UTF-8',
    TERM: 'dumb',
    NO_COLOR: '1',
    HTTP_PROXY: DEAD_PROXY,
    HTTPS_PROXY: DEAD_PROXY,
    ALL_PROXY: DEAD_PROXY,
    http_proxy: DEAD_PROXY,
    https_proxy: DEAD_PROXY,
    all_proxy: DEAD_PROXY,
    NO_PROXY: '127.0.0.1,localhost',
    no_proxy: '127.0.0.1,localhost',
    DO_NOT_TRACK: '1',
    ...extra,
  };
}

export function runProcess(
  binary: string,
  args: string[],
  env: Record<string, string>,
  cwd: string,
  timeoutMs: number,
): Promise<ProcessResult> {
  const started = Date.now();
  const child = spawn(join(BIN, binary), args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let stdout = '';
  let stderr = '';
  let timedOut = false;
  child.stdout.on('data', (data) => (stdout += data));
  child.stderr.on('data', (data) => (stderr += data));
  const timer = setTimeout(() => {
    timedOut = true;
    killGroup(child.pid);
  }, timeoutMs);
  return new Promise((resolve) => {
    const finish = (code: number | null) => {
      clearTimeout(timer);
      // Helpers a client left behind (language servers, MCP hosts) go with it.
      killGroup(child.pid);
      resolve({ code, stdout, stderr, timedOut, ms: Date.now() - started });
    };
    child.once('error', (error) => {
      stderr += String(error);
      finish(null);
    });
    child.once('close', finish);
  });
}

function killGroup(pid: number | undefined): void {
  if (!pid) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

export async function runLaunch(
  binary: string,
  launch: Launch,
  home: string,
  cwd: string,
  timeoutMs: number,
): Promise<ProcessResult & { setupFailure?: string }> {
  const env = isolatedEnv(home, launch.env);
  for (const setup of launch.setup ?? []) {
    const result = await runProcess(binary, setup, env, cwd, timeoutMs);
    if (result.code !== 0)
      return {
        ...result,
        setupFailure: `${binary} ${setup[0]} exited ${result.code}: ${(result.stderr || result.stdout).trim().split('\n')[0]}`,
      };
  }
  return runProcess(binary, launch.args, env, cwd, timeoutMs);
}
