// A program run interactively, as in a terminal: util-linux `script` gives it a pseudo-terminal of a fixed size,
// what it draws is kept on a TerminalScreen, and keys are written to its input. The program runs in a session of its
// own (the pty's), so its process id is written to a file by the shell before it execs the program, and stop() kills
// that group and script's.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { TerminalScreen } from './terminal-screen.js';

export interface TerminalProgramOptions {
  /** The executable and its arguments (each quoted for the shell). */
  command: string[];
  cwd: string;
  env: Record<string, string>;
  /** A file the program's process id is written to (in a folder of the test's own). */
  pidFile: string;
  columns?: number;
  rows?: number;
}

export class TerminalProgram {
  readonly screen: TerminalScreen;
  private readonly child: ChildProcess;
  private exited: Promise<number | null>;

  constructor(private readonly options: TerminalProgramOptions) {
    const columns = options.columns ?? 120;
    const rows = options.rows ?? 40;
    this.screen = new TerminalScreen(columns, rows);
    const program = options.command.map(shellQuote).join(' ');
    const shell = `stty cols ${columns} rows ${rows}; echo $$ > ${shellQuote(options.pidFile)}; exec ${program}`;
    this.child = spawn('/usr/bin/script', ['-qfec', shell, '/dev/null'], {
      cwd: options.cwd,
      env: { ...options.env, SHELL: '/bin/sh' },
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
    this.child.stdout?.setEncoding('utf8').on('data', (data: string) => this.screen.write(data));
    this.child.stderr?.setEncoding('utf8').on('data', (data: string) => this.screen.write(data));
    this.exited = new Promise((resolve) => this.child.once('close', (code) => resolve(code)));
  }

  /** Writes keys to the program (`\r` is Enter). */
  type(keys: string): void {
    this.child.stdin?.write(keys);
  }

  /** Resolves with `check`'s value once it is defined, polling the screen; throws with `what` and the screen after `ms`. */
  async waitFor<T>(
    what: string | (() => string),
    check: () => Promise<T | undefined> | T | undefined,
    ms = 30_000,
  ): Promise<T> {
    const deadline = Date.now() + ms;
    for (;;) {
      const value = await check();
      if (value !== undefined) return value;
      if (Date.now() > deadline)
        throw new Error(`waited ${ms} ms for ${typeof what === 'string' ? what : what()}; the screen:\n${this.dump()}`);
      await delay(100);
    }
  }

  /** The exit code, or undefined when the program is still running after `ms`. */
  async exit(ms: number): Promise<number | null | undefined> {
    const late = new AbortController();
    const timeout = delay(ms, undefined, { signal: late.signal }).catch(() => undefined);
    try {
      return await Promise.race([this.exited, timeout]);
    } finally {
      late.abort();
    }
  }

  /** Kills the program's process group (its helpers too) and script's. */
  stop(): void {
    const groups = [this.programPid(), this.child.pid].filter((pid): pid is number => pid !== undefined);
    for (const pid of groups) {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }

  dump(): string {
    return this.screen.text().join('\n');
  }

  private programPid(): number | undefined {
    try {
      const pid = Number.parseInt(readFileSync(this.options.pidFile, 'utf8'), 10);
      return Number.isInteger(pid) && pid > 1 ? pid : undefined;
    } catch {
      return undefined;
    }
  }
}

function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}
