// Every process the benchmark starts goes through one ProcessGroup, which stops them all at the end, on a
// signal, and (as a last resort, synchronously) when the orchestrator exits for any reason.
import { spawn, fork, type ChildProcess } from 'node:child_process';
import { openSync, closeSync } from 'node:fs';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

export interface StartOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** stdout and stderr go here (appended); nothing reaches the terminal. */
  logFile: string;
}

export class ProcessGroup {
  private readonly children = new Set<ChildProcess>();

  constructor() {
    process.once('exit', () => {
      for (const child of this.children) child.kill('SIGKILL');
    });
  }

  start(name: string, command: string, args: string[], options: StartOptions): ChildProcess {
    const fd = openSync(options.logFile, 'a');
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ['ignore', fd, fd],
    });
    closeSync(fd);
    return this.track(name, child);
  }

  /** A Node script with an IPC channel (the load generator). */
  fork(name: string, script: string, logFile: string): ChildProcess {
    const fd = openSync(logFile, 'a');
    const child = fork(script, [], { execArgv: [], stdio: ['ignore', fd, fd, 'ipc'] });
    closeSync(fd);
    return this.track(name, child);
  }

  /** SIGTERM, then SIGKILL after `graceMs`; resolves when the process is gone. */
  async stop(child: ChildProcess, graceMs = 5_000): Promise<void> {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(timer);
  }

  /** PIDs of the processes still running. */
  pids(): number[] {
    return [...this.children].flatMap((child) => (child.pid === undefined ? [] : [child.pid]));
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.children].map((child) => this.stop(child)));
  }

  private track(name: string, child: ChildProcess): ChildProcess {
    if (child.pid === undefined) throw new Error(`could not start ${name}`);
    this.children.add(child);
    child.once('exit', () => this.children.delete(child));
    return child;
  }
}

/** A port nobody listens on right now (the benchmark runs alone in its network namespace). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Resolves once 127.0.0.1:port accepts connections; fails early if the process exits first. */
export async function waitForPort(port: number, child: ChildProcess, name: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`${name} exited (${child.exitCode ?? child.signalCode}) before listening; see its log`);
    }
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await sleep(100);
  }
  throw new Error(`${name} did not listen on 127.0.0.1:${port} within ${timeoutMs} ms`);
}
