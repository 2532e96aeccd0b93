// Re-renders bench/results/<mode>.{md,svg} (and the derived parts of <mode>.json: leak verdict, targets) from
// the raw measurements in <mode>.json, without measuring again: for changes to how results are summarized.
// Usage: node dist/bench/render-results.js full|quick   (from the repository root)
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { BenchResults } from './lib/results.js';
import { summarizeLeak } from './lib/leak-check.js';
import { evaluateTargets } from './lib/targets.js';
import { renderMarkdown } from './lib/report-markdown.js';
import { renderSvg } from './lib/report-svg.js';

const mode = process.argv[2] ?? 'full';
const dir = path.resolve('bench/results');
const file = path.join(dir, `${mode}.json`);
const results = JSON.parse(readFileSync(file, 'utf8')) as BenchResults;
results.incidents ??= [];
if (results.leak) results.leak = { ...results.leak, ...summarizeLeak(results.leak.samples, results.leak.seconds) };
results.targets = evaluateTargets(results);
writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
writeFileSync(path.join(dir, `${mode}.svg`), renderSvg(results));
writeFileSync(path.join(dir, `${mode}.md`), renderMarkdown(results, `${mode}.svg`));
for (const t of results.targets)
  console.log(`${t.pass === null ? 'n/a ' : t.pass ? 'pass' : 'FAIL'}  ${t.description}: ${t.measured}`);
