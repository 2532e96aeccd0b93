// The top functions of a `node --cpu-prof` profile by self and by inclusive time, as % of busy (non-idle) time, from
// a given second on (to leave out start-up and warm-up): what to read first when a request costs more than it should.
// Inclusive time counts a function once per sample however deep it recurses. A filter keeps the names that contain it
// (e.g. `src/` for the gateway's own code); the percentages stay of all busy time.
//   npx tsx bench/profile-top.ts FILE.cpuprofile [from seconds, default 0] [filter] [rows, default 30]
import { readFileSync } from 'node:fs';
import type { CpuProfile } from './lib/cpu-profile.js';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

const [file, fromArg = '0', filter = '', rowsArg = '30'] = process.argv.slice(2);
if (!file) throw new Error('usage: profile-top.ts FILE.cpuprofile [from seconds] [filter] [rows]');
const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile & { nodes: Node[] };
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parentOf = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);

const nameOf = (id: number): string => {
  const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
  const where = url.replace(/^file:\/\//, '').replace(/^.*\/(dist|node_modules)\//, '');
  return `${functionName || '(anonymous)'} ${where}:${lineNumber + 1}`;
};

const self = new Map<string, number>();
const inclusive = new Map<string, number>();
const fromUs = profile.startTime + Number(fromArg) * 1e6;
const meanGap = profile.timeDeltas.reduce((a, b) => a + b, 0) / Math.max(1, profile.samples.length);
let at = profile.startTime;
let busyUs = 0;
for (let i = 0; i < profile.samples.length; i++) {
  at += profile.timeDeltas[i] ?? 0;
  const sample = profile.samples[i];
  if (at < fromUs || byId.get(sample)?.callFrame.functionName === '(idle)') continue;
  // A sample lasts until the next one.
  const us = Math.max(0, profile.timeDeltas[i + 1] ?? meanGap);
  busyUs += us;
  const leaf = nameOf(sample);
  self.set(leaf, (self.get(leaf) ?? 0) + us);
  const seen = new Set<string>();
  for (let id: number | undefined = sample; id !== undefined; id = parentOf.get(id)) {
    const name = nameOf(id);
    if (seen.has(name)) continue;
    seen.add(name);
    inclusive.set(name, (inclusive.get(name) ?? 0) + us);
  }
}

const rows = Number(rowsArg);
const table = (title: string, times: Map<string, number>) =>
  [
    `## ${title}`,
    ...[...times]
      .filter(([name]) => name.includes(filter))
      .sort((a, b) => b[1] - a[1])
      .slice(0, rows)
      .map(([name, us]) => `${((100 * us) / busyUs).toFixed(2).padStart(6)}%  ${name}`),
  ].join('\n');
console.log(`busy ${(busyUs / 1e6).toFixed(1)} s from ${fromArg} s\n`);
console.log(`${table('self', self)}\n\n${table('inclusive', inclusive)}`);
