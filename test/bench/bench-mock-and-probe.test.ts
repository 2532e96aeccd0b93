// The measuring chain end to end, without the gateway: the mock upstream and the bare pass-through as real
// processes, the probe timing them. Proves stamped chunks arrive one by one and failures are caught.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ProcessGroup, freePort, waitForPort } from '../../bench/lib/processes.js';
import { runProbe } from '../../bench/lib/probe.js';
import { chatBody, UPSTREAM_MODEL } from '../../bench/lib/requests.js';
import { COMPLETION_TOKENS } from '../../bench/mock-replies.js';

const group = new ProcessGroup();
const logs = mkdtempSync(path.join(tmpdir(), 'bench-test-'));
let mockUrl = '';
let passthroughUrl = '';

async function startScript(script: string, env: NodeJS.ProcessEnv = {}): Promise<number> {
  const port = await freePort();
  const child = group.start(script, process.execPath, ['--import', 'tsx', script, String(port)], {
    env: { ...process.env, ...env },
    logFile: path.join(logs, `${path.basename(script)}.log`),
  });
  await waitForPort(port, child, script, 20_000);
  return port;
}

beforeAll(async () => {
  const mockPort = await startScript('bench/mock-upstream.ts');
  mockUrl = `http://127.0.0.1:${mockPort}/v1/chat/completions`;
  const ptPort = await startScript('bench/passthrough.ts', { UPSTREAM_BASE_URL: `http://127.0.0.1:${mockPort}/v1` });
  passthroughUrl = `http://127.0.0.1:${ptPort}/v1/chat/completions`;
}, 30_000);

afterAll(() => group.stopAll());

const target = (url: string) => ({ url, headers: { authorization: 'Bearer test' } });

describe('mock upstream and probe', () => {
  it('times JSON completions', async () => {
    const summary = await runProbe({
      target: target(mockUrl),
      body: chatBody('json', UPSTREAM_MODEL),
      stream: false,
      warmupRequests: 2,
      maxRequests: 20,
      seconds: 5,
    });
    expect(summary.failures).toBe(0);
    expect(summary.requests).toBe(20);
    expect(summary.latency!.p50).toBeGreaterThan(0);
    expect(summary.firstChunk).toBeUndefined();
  });

  it('measures first chunk and per-chunk delay of paced, stamped streams through the pass-through', async () => {
    const summary = await runProbe({
      target: target(passthroughUrl),
      body: chatBody('stream', UPSTREAM_MODEL, { probePaceMs: 5 }),
      stream: true,
      warmupRequests: 1,
      maxRequests: 5,
      seconds: 5,
    });
    expect(summary.failures).toBe(0);
    // 17 gaps of 5 ms: the whole stream takes at least 85 ms, while each chunk arrives well before the next is sent.
    expect(summary.latency!.p50).toBeGreaterThanOrEqual(17 * 5);
    // Structural, not timed (a loaded machine slows everything): had the pass-through held the stream back, its
    // first chunk would come within the stream's last 40 ms and the later chunks ~40 ms after the mock sent them.
    expect(summary.firstChunk!.p50).toBeLessThanOrEqual(summary.latency!.p50 - 40);
    expect(summary.chunkDelay!.p50).toBeLessThan(40);
    expect(summary.firstChunkDelay!.p50).toBeGreaterThan(0);
  });

  it('counts malformed answers as failures instead of timing them', async () => {
    const summary = await runProbe({
      target: target(mockUrl.replace('/chat/completions', '/nowhere')),
      body: chatBody('json', UPSTREAM_MODEL),
      stream: false,
      warmupRequests: 0,
      maxRequests: 3,
      seconds: 5,
    });
    expect(summary.requests).toBe(0);
    expect(summary.failures).toBe(3);
    expect(summary.firstFailure).toMatch(/^HTTP 404/);
  });

  it('streams unpaced answers with every content chunk and [DONE]', async () => {
    const summary = await runProbe({
      target: target(mockUrl),
      body: chatBody('stream', UPSTREAM_MODEL),
      stream: true,
      warmupRequests: 0,
      maxRequests: 3,
      seconds: 5,
    });
    // The probe rejects streams without all COMPLETION_TOKENS content chunks or without [DONE].
    expect(COMPLETION_TOKENS).toBe(18);
    expect(summary.failures).toBe(0);
    expect(summary.chunkDelay).toBeUndefined();
  });
});
