// The load test's own bookkeeping (bench/load-streams.ts): how a stream's cost is read from its events, how rounds
// are summarized, and how the books are compared account by account. If these are wrong, `make bench-load` could
// call unequal books equal.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { StreamTally, runStreams, type StreamRecord } from '../../bench/lib/stream-client.js';
import {
  addCosts,
  compareAccounts,
  renderLoadReport,
  reportedCosts,
  summarizeRound,
} from '../../bench/lib/load-streams-report.js';
import { slowMarker, slowStream } from '../../bench/mock-replies.js';

const usageEvent = (cost: number) =>
  `data: ${JSON.stringify({ id: 'g', object: 'chat.completion.chunk', choices: [], usage: { prompt_tokens: 3, completion_tokens: 4, cost } })}\n\n`;
const record = (overrides: Partial<StreamRecord>): StreamRecord => ({
  keyIndex: 0,
  status: 200,
  firstChunkMs: 10,
  durationMs: 100,
  done: true,
  ...overrides,
});

describe('StreamTally', () => {
  it("reads the usage chunk's cost exactly, in nano-dollars, and [DONE], across reads split anywhere", () => {
    const text = `data: {"choices":[{"delta":{"content":"usage of words"}}]}\n\n${usageEvent(0.000032)}${usageEvent(1.23e-7).replace('0.000032', '')}data: [DONE]\n\n`;
    for (const at of [1, 17, 80, text.length - 3]) {
      const tally = new StreamTally();
      tally.push(text.slice(0, at));
      expect(tally.done).toBe(false);
      tally.push(text.slice(at));
      // The last usage chunk wins; 1.23e-7 USD is 123 nano-dollars, read without binary rounding.
      expect(tally.costNanos).toBe(123n);
      expect(tally.done).toBe(true);
    }
  });

  it('has no cost for a stream without a usage chunk', () => {
    const tally = new StreamTally();
    tally.push('data: {"choices":[]}\n\ndata: [DONE]\n\n');
    expect(tally.costNanos).toBeUndefined();
  });
});

describe('runStreams', () => {
  it('sends every stream at once, with keys in turn, and records status, first chunk, end and cost', async () => {
    let open = 0;
    let maxOpen = 0;
    const seenKeys: string[] = [];
    const server = http.createServer((req, res) => {
      seenKeys.push(req.headers.authorization ?? '');
      if (req.headers.authorization === 'Bearer k2') {
        res.writeHead(402, { 'content-type': 'application/json' }).end('{"error":{"code":402,"message":"no credits"}}');
        return;
      }
      open++;
      maxOpen = Math.max(maxOpen, open);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: {"choices":[]}\n\n');
      setTimeout(() => {
        open--;
        res.end(`${usageEvent(0.000001)}data: [DONE]\n\n`);
      }, 150);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/chat/completions`;
      const { records, wallMs } = await runStreams({ url, keys: ['k0', 'k1', 'k2'], body: '{}' }, 9);
      expect(maxOpen).toBe(6);
      expect(seenKeys.sort()).toEqual(['k0', 'k0', 'k0', 'k1', 'k1', 'k1', 'k2', 'k2', 'k2'].map((k) => `Bearer ${k}`));
      expect(records.map((r) => r.keyIndex)).toEqual([0, 1, 2, 0, 1, 2, 0, 1, 2]);
      const ok = records.filter((r) => r.keyIndex !== 2);
      expect(
        ok.every(
          (r) =>
            r.status === 200 && r.done && r.costNanos === 1000n && r.firstChunkMs < r.durationMs && r.durationMs >= 140,
        ),
      ).toBe(true);
      const refused = records.filter((r) => r.keyIndex === 2);
      expect(refused.every((r) => r.status === 402 && !r.done && r.error?.includes('no credits'))).toBe(true);
      expect(wallMs).toBeGreaterThanOrEqual(140);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('load report', () => {
  it('summarizes a round: completed streams, failures by cause, nearest-rank percentiles', () => {
    const records = [
      ...Array.from({ length: 98 }, (_, i) => record({ firstChunkMs: i + 1, durationMs: 1000 + i })),
      record({ status: 503, done: false, error: 'busy', firstChunkMs: 500 }),
      record({ done: false, firstChunkMs: 99 }),
    ];
    const round = summarizeRound('modelgate', 2, records, 1234.4, { peakRssMb: 200 });
    expect(round).toMatchObject({
      variant: 'modelgate',
      round: 2,
      streams: 100,
      completed: 98,
      wallMs: 1234,
      peakRssMb: 200,
    });
    expect(round.failures).toEqual({ '503 busy': 1, '200 ended without [DONE]': 1 });
    expect(round.firstChunkMs).toEqual({ p50: 50, p99: 99, max: 500 });
    expect(round.streamMs).toEqual({ p50: 1048, p99: 1097 });
  });

  it('sums reported costs per account over its keys and calls the books equal only when every account is', () => {
    const owners = ['alice', 'alice', 'bob'];
    const reported = reportedCosts(
      [
        record({ keyIndex: 0, costNanos: 5n }),
        record({ keyIndex: 1, costNanos: 7n }),
        record({ keyIndex: 2, costNanos: 1n }),
        record({ keyIndex: 2 }),
      ],
      owners,
    );
    expect(reported).toEqual(
      new Map([
        ['alice', 12n],
        ['bob', 1n],
      ]),
    );
    addCosts(reported, new Map([['bob', 2n]]));
    expect(
      compareAccounts(
        'ledger',
        reported,
        new Map([
          ['alice', 12n],
          ['bob', 3n],
        ]),
      ).mismatches,
    ).toEqual([]);
    // Totals equal, but money moved between accounts: still a mismatch, for both.
    const moved = compareAccounts(
      'ledger',
      reported,
      new Map([
        ['alice', 13n],
        ['bob', 2n],
      ]),
    );
    expect(moved.mismatches.map((m) => m.account)).toEqual(['alice', 'bob']);
    expect(moved.reportedTotalNanos).toBe(moved.chargedTotalNanos);
    // An account charged without any reported stream is a mismatch too.
    expect(
      compareAccounts(
        'ledger',
        reported,
        new Map([
          ['alice', 12n],
          ['bob', 3n],
          ['carol', 1n],
        ]),
      ).mismatches,
    ).toEqual([{ account: 'carol', reportedNanos: '0', chargedNanos: '1' }]);
  });

  it('renders every round and says when the books differ', () => {
    const rounds = [summarizeRound('modelgate', 1, [record({})], 10)];
    const checks = [compareAccounts('/credits total_usage', new Map([['a', 1n]]), new Map([['a', 2n]]))];
    const text = renderLoadReport({
      startedAt: 't',
      machine: 'm',
      streams: 1,
      stream: { chunks: 24, everyMs: 100 },
      accounts: 1,
      keysPerAccount: 1,
      rounds,
      checks,
    });
    expect(text).toContain('| modelgate | 1 | 1/1 |');
    expect(text).toContain('**1 accounts differ**');
    expect(text).toContain('a: reported 1, charged 2 nano-USD');
  });
});

describe('slow stream marker', () => {
  it('asks the mock for a stream of so many chunks so far apart', () => {
    expect(slowStream({ messages: [{ content: 'x' }, { content: `story ${slowMarker(24, 100)}` }] })).toEqual({
      chunks: 24,
      everyMs: 100,
    });
    expect(slowStream({ messages: [{ content: 'plain' }] })).toBeUndefined();
  });
});
