// `modelgate serve` in a process of its own, as an operator runs it (several at once for the multi-instance
// tests): a free port, logs to a file, stopped by SIGTERM. Plus a one-connection HTTP client, so that requests to a
// cluster reach its workers in turn instead of riding one keep-alive connection.
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { CLI_ENTRY } from './built-cli.js';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface ServeProcess {
  url: string;
  child: ChildProcess;
  /** The JSON log lines written so far. */
  logLines(): { msg: string; [field: string]: unknown }[];
  /** Sends SIGTERM and resolves with the exit code. */
  stop(): Promise<number | null>;
  exited: Promise<number | null>;
  stderr(): string;
}

export async function startServe(options: {
  env: Record<string, string>;
  args?: string[];
  logFile: string;
  ready?: string;
}): Promise<ServeProcess> {
  const port = await freePort();
  const out = openSync(options.logFile, 'a');
  const child = spawn(process.execPath, [...CLI_ENTRY, 'serve', ...(options.args ?? [])], {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      // Validators compile on each operation's first request: a test calls a few operations, not all of them.
      MODELGATE_PRECOMPILE_VALIDATORS: 'false',
      ...options.env,
    },
    stdio: ['ignore', out, 'pipe'],
  });
  closeSync(out);
  let stderr = '';
  child.stderr!.on('data', (data) => (stderr += String(data)));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const logLines = () =>
    readFileSync(options.logFile, 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { msg: string });
  const ready = options.ready ?? 'modelgate listening';
  while (!logLines().some((line) => line.msg === ready)) {
    if (child.exitCode !== null) throw new Error(`serve exited (${child.exitCode}) before it was ready: ${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url: `http://127.0.0.1:${port}`,
    child,
    logLines,
    exited,
    stderr: () => stderr,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

export interface PlainResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One request on a connection of its own (closed after it). */
export function requestOnce(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<PlainResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method: init.method ?? 'GET', headers: { connection: 'close', ...init.headers }, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(init.body);
  });
}

/** The value of one sample line of a Prometheus text exposition (`name{labels} value`), summed over matching lines. */
export function metricValue(text: string, name: string, labels: Record<string, string> = {}): number {
  let total = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (!Object.entries(labels).every(([key, value]) => line.includes(`${key}="${value}"`))) continue;
    total += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return total;
}
