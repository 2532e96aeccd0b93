// Interleaved probes: every system is probed in short slices, in turn, round after round, each on its own kept
// connection; each slice's p50 is kept by round, and the machine share is weighted over a system's slices.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { rotate, runInterleavedProbe } from '../../bench/lib/interleaved-probe.js';
import { chatBody, UPSTREAM_MODEL } from '../../bench/lib/requests.js';
import type { SystemName } from '../../bench/lib/plan.js';
import { CONTENT_WORDS, contentFrame, roleFrame, stamp, tailFrames } from '../../bench/mock-replies.js';

const arrivals: string[] = [];
const connections = new Map<string, number>();
const servers: http.Server[] = [];

/** A completion answered at once; every request's arrival is logged under `name`. */
async function completionServer(name: string): Promise<string> {
  const server = http.createServer((req, res) => {
    req.resume().once('end', () => {
      arrivals.push(name);
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          id: 'c',
          object: 'chat.completion',
          choices: [{ index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' }],
        }),
      );
    });
  });
  server.on('connection', () => connections.set(name, (connections.get(name) ?? 0) + 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/chat/completions`;
}

/**
 * A stamped stream like the mock's probe streams, content chunks 1 ms apart. With `holdMs`, each content chunk is
 * stamped when made but written only `holdMs` later, as a gateway that held chunks back would deliver it.
 */
async function streamServer(holdMs: number): Promise<string> {
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const server = http.createServer((req, res) => {
    req.resume().once('end', async () => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(roleFrame(UPSTREAM_MODEL));
      for (const word of CONTENT_WORDS) {
        await sleep(1);
        const frame = contentFrame(UPSTREAM_MODEL, `${word}${stamp(process.hrtime.bigint())}`);
        if (holdMs > 0) setTimeout(() => res.write(frame), holdMs);
        else res.write(frame);
      }
      await sleep(holdMs);
      for (const frame of tailFrames(UPSTREAM_MODEL, 10, true)) res.write(frame);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/chat/completions`;
}

/** Two rounds of two recorded requests per system, no warm-up requests. */
function twoShortRounds(stream: boolean, systems: [SystemName, string][]) {
  const body = chatBody(stream ? 'stream' : 'json', UPSTREAM_MODEL);
  return runInterleavedProbe({
    systems: systems.map(([name, url]) => ({ name, target: { url, headers: {} }, body })),
    stream,
    rounds: 2,
    sliceSeconds: 5,
    warmupRequestsPerSlice: 0,
    maxRequestsPerSlice: 2,
  });
}

let mockUrl = '';
let gatewayUrl = '';

beforeAll(async () => {
  mockUrl = await completionServer('mock');
  gatewayUrl = await completionServer('modelgate');
});

afterAll(async () => {
  for (const server of servers) await new Promise((resolve) => server.close(resolve));
});

describe('interleaved probe', () => {
  it('probes the systems in turn, slice by slice, and keeps every slice p50 by round', async () => {
    arrivals.length = 0;
    const body = chatBody('json', UPSTREAM_MODEL);
    let windows = 0;
    const results = await runInterleavedProbe({
      systems: [
        { name: 'mock', target: { url: mockUrl, headers: {} }, body },
        { name: 'modelgate', target: { url: gatewayUrl, headers: {} }, body },
      ],
      stream: false,
      rounds: 4,
      sliceSeconds: 5,
      warmupRequestsPerSlice: 1,
      maxRequestsPerSlice: 3,
      openMachineWindow: () => {
        const busyPct = 50 + 10 * windows++;
        return { close: () => ({ busyPct, foreignPct: 2 }) };
      },
    });
    // Each slice: 1 unrecorded + 3 recorded requests. Rounds alternate the order (rotate), so consecutive slices
    // of one system meet at round boundaries: mock | modelgate modelgate | mock mock | modelgate modelgate | mock.
    const runs = arrivals.reduce<{ name: string; n: number }[]>((acc, name) => {
      const last = acc.at(-1);
      if (last?.name === name) last.n++;
      else acc.push({ name, n: 1 });
      return acc;
    }, []);
    expect(runs).toEqual([
      { name: 'mock', n: 4 },
      { name: 'modelgate', n: 8 },
      { name: 'mock', n: 8 },
      { name: 'modelgate', n: 8 },
      { name: 'mock', n: 4 },
    ]);
    // One kept connection per system for the whole probe.
    expect(connections.get('mock')).toBe(1);
    expect(connections.get('modelgate')).toBe(1);
    for (const result of results) {
      expect(result.requests).toBe(12);
      expect(result.failures).toBe(0);
      expect(result.rounds).toHaveLength(4);
      for (const round of result.rounds) {
        expect(round.p50).toBeGreaterThan(0);
        expect(round.foreignPct).toBe(2);
      }
      expect(result.latency!.p50).toBeGreaterThan(0);
    }
    // Slices opened windows at busy 50, 60 (round 0: mock, modelgate), 70, 80 (round 1: modelgate, mock), …: each
    // system's share is the duration-weighted mean of its own slices' windows.
    const mock = results.find((r) => r.system === 'mock')!;
    expect(mock.machine!.foreignPct).toBe(2);
    expect(mock.machine!.busyPct).toBeGreaterThan(50);
    expect(mock.machine!.busyPct).toBeLessThan(110);
  });

  it('counts failures per system without stopping the others', async () => {
    const [mock, unreachable] = await twoShortRounds(false, [
      ['mock', mockUrl],
      ['portkey', 'http://127.0.0.1:9/v1/chat/completions'],
    ]);
    expect(mock.requests).toBe(4);
    expect(unreachable.requests).toBe(0);
    expect(unreachable.failures).toBe(4);
    expect(unreachable.firstFailure).toMatch(/ECONNREFUSED/);
    expect(unreachable.rounds).toEqual([{}, {}]);
    expect(unreachable.machine).toBeUndefined();
  });

  it('keeps the p99 chunk delay of every stream slice by round: a system that holds chunks back shows the hold in every round', async () => {
    const [faithful, holding] = await twoShortRounds(true, [
      ['mock', await streamServer(0)],
      ['modelgate', await streamServer(8)],
    ]);
    expect(faithful.failures).toBe(0);
    expect(holding.failures).toBe(0);
    for (const round of faithful.rounds) expect(round.chunkDelayP99).toBeGreaterThanOrEqual(0);
    // Delays are measured from the stamp to arrival, so a chunk written 8 ms after its stamp arrives ≥ 8 ms late.
    for (const round of holding.rounds) expect(round.chunkDelayP99).toBeGreaterThanOrEqual(8);
  });

  it('rotates the order by round', () => {
    expect(rotate(['a', 'b', 'c'], 0)).toEqual(['a', 'b', 'c']);
    expect(rotate(['a', 'b', 'c'], 4)).toEqual(['b', 'c', 'a']);
  });
});
