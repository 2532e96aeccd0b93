// SSE parsing side by side: the gateway's parser (src/providers/sse/parse-sse.ts, on eventsource-parser) against the
// hand-written one it replaced (bench/lib/handwritten-sse-parser.ts). Each parses the same recorded streams, made
// 2,000 events long from the vendor fixtures (OpenAI: data lines only; Anthropic: event + data lines), cut into reads
// of random sizes (seeded) and into one read per event, many times over; CPU time per event, median of alternated
// rounds. Usage: npx tsx bench/sse-parser-compare.ts [rounds, default 9] [parses per round, default 40]
import { readFileSync } from 'node:fs';
import { createSseParser, type SseParser } from '../src/providers/sse/parse-sse.js';
import { createHandwrittenSseParser } from './lib/handwritten-sse-parser.js';
import { median } from './lib/stats.js';

const EVENTS = 2_000;
const encoder = new TextEncoder();

/** A fixture's events repeated to `EVENTS` events, as the bytes an upstream sends. */
function recordedStream(fixture: string): { text: string; events: string[] } {
  const recorded = readFileSync(new URL(`../test/fixtures/${fixture}.chunks.txt`, import.meta.url), 'utf8')
    .split('\n\n')
    .filter((event) => event.trim() !== '')
    .map((event) => `${event}\n\n`);
  const events = Array.from({ length: EVENTS }, (_, i) => recorded[i % recorded.length]!);
  return { text: events.join(''), events };
}

/** Reads of 16–1024 bytes (a seeded generator: every run cuts the same places), split anywhere, mid-character too. */
function randomReads(bytes: Uint8Array, seed: number): Uint8Array[] {
  let state = seed;
  const next = () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
  const reads: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; ) {
    const size = 16 + Math.floor(next() * 1009);
    reads.push(bytes.subarray(at, at + size));
    at += size;
  }
  return reads;
}

interface Case {
  name: string;
  reads: Uint8Array[];
}

function cases(): Case[] {
  return ['openai/text', 'anthropic/text'].flatMap((fixture) => {
    const { text, events } = recordedStream(fixture);
    return [
      { name: `${fixture}, random reads`, reads: randomReads(encoder.encode(text), 42) },
      { name: `${fixture}, one read per event`, reads: events.map((event) => encoder.encode(event)) },
    ];
  });
}

/** CPU microseconds per event for `parses` parses of the case's reads with fresh parsers. */
function measure(create: () => SseParser, reads: Uint8Array[], parses: number): number {
  let events = 0;
  const start = process.cpuUsage();
  for (let i = 0; i < parses; i++) {
    const parser = create();
    for (const read of reads) events += parser.push(read).length;
    events += parser.end().length;
  }
  const used = process.cpuUsage(start);
  if (events !== parses * EVENTS) throw new Error(`parsed ${events / parses} events per stream, expected ${EVENTS}`);
  return (used.user + used.system) / events;
}

function main(): void {
  const rounds = Number(process.argv[2] ?? 9);
  const parses = Number(process.argv[3] ?? 40);
  const parsers = { handwritten: () => createHandwrittenSseParser(), 'eventsource-parser': () => createSseParser() };
  console.log(
    `SSE parsing, ${EVENTS} events per stream, ${parses} parses per round, median of ${rounds} alternated rounds (CPU µs per event)`,
  );
  console.log('| stream | hand-written | eventsource-parser | ratio |\n|---|---|---|---|');
  for (const { name, reads } of cases()) {
    // Warm-up: both parsers compiled by the JIT before anything counts.
    for (const create of Object.values(parsers)) measure(create, reads, parses);
    const timings: Record<keyof typeof parsers, number[]> = { handwritten: [], 'eventsource-parser': [] };
    for (let round = 0; round < rounds; round++) {
      const order =
        round % 2 === 0
          ? (['handwritten', 'eventsource-parser'] as const)
          : (['eventsource-parser', 'handwritten'] as const);
      for (const id of order) timings[id].push(measure(parsers[id], reads, parses));
    }
    const before = median(timings.handwritten)!;
    const after = median(timings['eventsource-parser'])!;
    console.log(`| ${name} | ${before.toFixed(3)} | ${after.toFixed(3)} | ${(after / before).toFixed(2)} |`);
  }
}

main();
