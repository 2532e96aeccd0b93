// What the body reader's checks cost on a coding-agent-sized request (bench/lib/agent-requests.ts: ~400 KB, 240
// messages, 25 tools, in each door's protocol). "before" is JSON.parse and the nesting walk; "after" adds the
// duplicate-member check (src/http/body-shape.ts: the walk also counts members, and the text's member names are
// counted). CPU µs per body, median of alternated rounds with the 95% interval of the median.
// Usage: npx tsx bench/body-checks-compare.ts [rounds, default 15] [parses per round, default 200]
import { laneBody, type LaneDoor } from './lib/agent-requests.js';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../src/http/json-depth.js';
import { refuseBodyShape } from '../src/http/body-shape.js';
import { median, medianInterval } from './lib/stats.js';

type Variant = 'before' | 'after';

const variants: Record<Variant, (text: string) => unknown> = {
  before: (text) => {
    const body: unknown = JSON.parse(text);
    if (nestsDeeperThan(body, MAX_JSON_DEPTH)) throw new Error('too deep');
    return body;
  },
  after: (text) => {
    const body: unknown = JSON.parse(text);
    if (refuseBodyShape(text, body)) throw new Error('refused');
    return body;
  },
};

/** CPU µs per body over `parses` parses (the text is decoded once, as the reader does before JSON.parse). */
function measure(check: (text: string) => unknown, text: string, parses: number): number {
  const start = process.cpuUsage();
  for (let i = 0; i < parses; i++) check(text);
  const used = process.cpuUsage(start);
  return (used.user + used.system) / parses;
}

function main(): void {
  const rounds = Number(process.argv[2] ?? 15);
  const parses = Number(process.argv[3] ?? 200);
  console.log(
    `Body checks on the agent-sized request, ${parses} parses per round, median of ${rounds} alternated rounds (CPU µs per body, 95% interval)`,
  );
  console.log('| door | size | before (parse + depth) | after (+ duplicate names) | added |\n|---|---|---|---|---|');
  for (const door of ['chat', 'messages', 'responses'] as LaneDoor[]) {
    const text = laneBody(door, 'agent', 'openai/gpt-5.4');
    for (const check of Object.values(variants)) measure(check, text, parses);
    const timings: Record<Variant, number[]> = { before: [], after: [] };
    for (let round = 0; round < rounds; round++) {
      const order: Variant[] = round % 2 === 0 ? ['before', 'after'] : ['after', 'before'];
      for (const variant of order) timings[variant].push(measure(variants[variant], text, parses));
    }
    const cell = (samples: number[]) => {
      const [low, high] = medianInterval(samples) ?? [NaN, NaN];
      return `${median(samples)!.toFixed(0)} (${low.toFixed(0)}–${high.toFixed(0)})`;
    };
    const added = timings.after.map((after, i) => after - timings.before[i]!);
    console.log(
      `| ${door} | ${(text.length / 1000).toFixed(0)} KB | ${cell(timings.before)} | ${cell(timings.after)} | ${cell(added)} |`,
    );
  }
}

main();
