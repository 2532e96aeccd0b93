// `modelgate serve` as an operator runs it: its own process, logs to a file, stopped by SIGTERM. Log writes are
// buffered and asynchronous, so this checks that the last lines of a graceful stop reach the file anyway.
import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI_ENTRY } from '../helpers/built-cli.js';
import { freePort } from '../helpers/serve-process.js';
import { startTestGateway } from '../helpers/gateway.js';

const work = mkdtempSync(path.join(tmpdir(), 'modelgate-serve-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Polls until `ready()`; fails as soon as the process is gone. */
async function waitFor(ready: () => Promise<boolean> | boolean, exited: () => boolean): Promise<void> {
  while (!(await ready())) {
    if (exited()) throw new Error('gateway exited before it was ready');
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('modelgate serve', () => {
  it('writes its last lines ("stopped") to the log before exiting on SIGTERM', { timeout: 60_000 }, async () => {
    const port = await freePort();
    const logFile = path.join(work, 'gateway.log');
    const out = openSync(logFile, 'a');
    const child = spawn(process.execPath, [...CLI_ENTRY, 'serve'], {
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'info',
        MODELGATE_DATA_DIR: path.join(work, 'data'),
        MODELGATE_CATALOG: 'test/fixtures/catalog/test-catalog.json',
        OPENAI_API_KEY: 'k',
        OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
      },
      stdio: ['ignore', out, 'pipe'],
    });
    closeSync(out);
    let stderr = '';
    child.stderr!.on('data', (data) => (stderr += String(data)));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      const gone = () => child.exitCode !== null;
      // On a fresh embedded database serve prints the development key, then installs its SIGTERM handler.
      await waitFor(() => readFileSync(logFile, 'utf8').includes('Try: curl'), gone);
      await waitFor(
        () =>
          fetch(`http://127.0.0.1:${port}/api/v1/models`).then(
            () => true,
            () => false,
          ),
        gone,
      );
      child.kill('SIGTERM');
      expect(await exited, stderr).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
    const lines = readFileSync(logFile, 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { msg: string; heap_limit_mb?: number; providers?: string[] });
    const messages = lines.map((line) => line.msg);
    // The heap limit tells an operator whether serve was started with src/cli/serve-node-options.ts.
    const listening = lines.find((line) => line.msg === 'modelgate listening');
    expect(listening?.heap_limit_mb).toBeGreaterThan(0);
    // The providers with a key, by id (OPENAI_API_KEY is set above, no other); no warning that none is.
    expect(listening?.providers).toEqual(['openai']);
    expect(messages.filter((message) => message.startsWith('no provider has an API key'))).toEqual([]);
    expect(messages).toContain('request');
    expect(messages.slice(-2)).toEqual(['shutting down', 'stopped']);
  });

  it('warns at start when no provider has an API key', async () => {
    const gw = await startTestGateway({ env: { MODELGATE_CATALOG: 'test/fixtures/catalog/test-catalog.json' } });
    try {
      const lines = gw.logs.map((line) => JSON.parse(line) as { msg: string; level: number; providers?: string[] });
      expect(lines.find((line) => line.msg === 'modelgate listening')?.providers).toEqual([]);
      expect(lines.find((line) => line.msg.startsWith('no provider has an API key'))?.level).toBe(40);
    } finally {
      await gw.close();
    }
  });
});
