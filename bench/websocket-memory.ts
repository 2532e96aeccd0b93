// `make bench-sockets`: what 200 Responses WebSocket sockets cost the gateway in memory, and whether a client that
// stops reading makes it buffer. A gateway process (embedded database, `serve`) talks to a mock OpenAI Responses
// upstream that streams a large answer (by default 2 MB of text deltas per turn, written as fast as the gateway reads
// it). The script samples the gateway's RSS: idle, with the sockets open and warmed up, then while every socket runs
// a turn whose client has stopped reading (its TCP reads paused), and after all clients read on to the end. Without
// backpressure the paused turns would hold sockets × answer bytes; with it, each holds about the send buffer's
// high-water mark plus the kernel's socket buffers. Every turn must still complete once its client reads.
// Usage: npx tsx bench/websocket-memory.ts [sockets, default 200] [answer KiB per turn, default 2048]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import WebSocket from 'ws';
import { ProcessGroup } from './lib/processes.js';
import { rssBytes } from './lib/proc-stats.js';
import { responsesDelta, responsesHead, responsesTail } from './mock-responses.js';

const SOCKETS = Number(process.argv[2] ?? 200);
const ANSWER_KIB = Number(process.argv[3] ?? 2048);
const DELTA_BYTES = 1024;
const MODEL = 'openai/gpt-5.5';
const repoRoot = process.cwd();
const log = (line: string) => console.log(`${new Date().toISOString().slice(11, 19)} ${line}`);
const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

/** An OpenAI Responses upstream whose stream is ANSWER_KIB of text deltas, written only as fast as they are read. */
async function startUpstream(): Promise<{ url: string; close(): Promise<void> }> {
  const word = 'x'.repeat(DELTA_BYTES - 1);
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', async () => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const frame of responsesHead(MODEL)) res.write(frame);
      for (let i = 0; i < ANSWER_KIB; i++) {
        if (!res.write(responsesDelta(i, `${word} `))) await new Promise((resolve) => res.once('drain', resolve));
        if (res.destroyed) return;
      }
      for (const frame of responsesTail(MODEL, 10, 'done')) res.write(frame);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function cli(env: NodeJS.ProcessEnv, ...args: string[]): string {
  return execFileSync('npx', ['tsx', 'src/cli.ts', ...args], { cwd: repoRoot, env, encoding: 'utf8' });
}

async function waitForHealth(url: string): Promise<void> {
  for (let tries = 0; tries < 300; tries++) {
    try {
      if ((await fetch(`${url}/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  throw new Error('the gateway did not start');
}

/** One socket: a warm-up turn answered at once, then a streamed turn read only when `reading` allows. */
class Client {
  readonly ws: WebSocket;
  completed = 0;
  bytes = 0;
  private readonly opened: Promise<void>;

  constructor(url: string, key: string) {
    this.ws = new WebSocket(url, { headers: { authorization: `Bearer ${key}` } });
    this.opened = new Promise((resolve, reject) => {
      this.ws.once('open', () => resolve());
      this.ws.once('error', reject);
    });
    this.ws.on('message', (data: Buffer) => {
      this.bytes += data.length;
      const type = JSON.parse(String(data)).type as string;
      if (type === 'response.completed') this.completed++;
      if (type === 'error') console.error(String(data));
    });
  }

  async warmUp(): Promise<void> {
    await this.opened;
    this.ws.send(JSON.stringify({ type: 'response.create', model: MODEL, input: 'warm up', generate: false }));
    while (this.completed < 1) await sleep(20);
  }

  /** Sends the turn's frame, then stops reading from the TCP socket. */
  startPausedTurn(): void {
    this.ws.send(JSON.stringify({ type: 'response.create', model: MODEL, input: 'tell me everything', store: false }));
    (this.ws as unknown as { _socket: import('node:net').Socket })._socket.pause();
  }

  resume(): void {
    (this.ws as unknown as { _socket: import('node:net').Socket })._socket.resume();
  }
}

async function sampleRss(pid: number, ms: number): Promise<number> {
  let peak = 0;
  for (const end = Date.now() + ms; Date.now() < end; await sleep(100)) peak = Math.max(peak, rssBytes(pid) ?? 0);
  return peak;
}

const group = new ProcessGroup();
const dataDir = mkdtempSync(path.join(tmpdir(), 'modelgate-sockets-'));
const upstream = await startUpstream();
try {
  const env = {
    ...process.env,
    MODELGATE_DATA_DIR: dataDir,
    OPENAI_API_KEY: 'sk-bench',
    OPENAI_BASE_URL: upstream.url,
    MODELGATE_RATE_LIMIT_RPM: '0',
    MODELGATE_RATE_LIMIT_TPM: '0',
    LOG_LEVEL: 'warn',
    PORT: '0',
  };
  cli(env, 'users', 'create', '--email', 'sockets@example.com');
  const key = JSON.parse(cli(env, 'keys', 'create', '--email', 'sockets@example.com', '--json')).key as string;
  cli(env, 'credits', 'add', '--email', 'sockets@example.com', '--usd', '100000');
  const port = 20000 + Math.floor(Math.random() * 20000);
  const logFile = path.join(dataDir, 'gateway.log');
  const gateway = group.start('gateway', process.execPath, ['--import', 'tsx', 'src/cli.ts', 'serve'], {
    cwd: repoRoot,
    env: { ...env, PORT: String(port), HOST: '127.0.0.1' },
    logFile,
  });
  const origin = `http://127.0.0.1:${port}`;
  await waitForHealth(origin);
  // Node itself, with tsx's loader: the process measured is the gateway, and stopping it stops the gateway.
  const pid = gateway.pid!;
  await sleep(2000);
  const idle = await sampleRss(pid, 2000);
  log(`gateway pid ${pid}, idle RSS ${mib(idle)} MiB`);

  const clients = Array.from({ length: SOCKETS }, () => new Client(`ws://127.0.0.1:${port}/api/v1/responses`, key));
  await Promise.all(clients.map((client) => client.warmUp()));
  const open = await sampleRss(pid, 3000);
  log(`${SOCKETS} sockets open and warmed up: RSS ${mib(open)} MiB (+${mib(open - idle)} MiB)`);

  for (const client of clients) client.startPausedTurn();
  const paused = await sampleRss(pid, 15_000);
  const answered = ANSWER_KIB * 1024 * SOCKETS;
  log(
    `${SOCKETS} turns of ${ANSWER_KIB} KiB each, clients not reading: peak RSS ${mib(paused)} MiB ` +
      `(+${mib(paused - open)} MiB over open sockets, ${((paused - open) / SOCKETS / 1024).toFixed(0)} KiB a socket; ` +
      `the answers hold ${mib(answered)} MiB)`,
  );

  for (const client of clients) client.resume();
  const started = Date.now();
  while (clients.some((client) => client.completed < 2) && Date.now() - started < 300_000) await sleep(200);
  const done = clients.filter((client) => client.completed >= 2).length;
  const received = clients.reduce((sum, client) => sum + client.bytes, 0);
  log(`clients reading again: ${done}/${SOCKETS} turns completed, ${mib(received)} MiB received`);
  const after = await sampleRss(pid, 2000);
  log(`after: RSS ${mib(after)} MiB`);
  for (const client of clients) client.ws.close();
  process.exitCode = done === SOCKETS ? 0 : 1;
} finally {
  await group.stopAll();
  await upstream.close();
  rmSync(dataDir, { recursive: true, force: true });
}
