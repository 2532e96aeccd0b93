// Credit admission of a small request (no hosted tools, no price option, a key without a USD limit, credits held
// against an in-memory lease) in one process: two compiled trees alternated round by round, nanoseconds per call.
// Far more sensitive than a whole request's CPU on a shared machine, where a change of a microsecond is lost in noise.
//   npx tsx bench/admission-compare.ts --before ROOT --after ROOT [--rounds 12] [--calls 200000]
import path from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import type * as AdmissionModule from '../src/billing/admission.js';
import type * as CatalogModule from '../src/catalog/parse-catalog.js';
import type { Principal } from '../src/auth/principal.js';

const { values } = parseArgs({
  options: {
    before: { type: 'string' },
    after: { type: 'string' },
    rounds: { type: 'string' },
    calls: { type: 'string' },
  },
});
if (!values.before || !values.after) throw new Error('usage: admission-compare --before ROOT --after ROOT');
const ROUNDS = Number(values.rounds ?? 12);
const CALLS = Number(values.calls ?? 200_000);

const CATALOG = {
  providers: { acme: { kind: 'openai-compatible', base_url: 'https://a.test' } },
  models: [
    {
      id: 'acme/m',
      upstream_model: 'm',
      name: 'M',
      created: 1,
      context_length: 128_000,
      supports_reasoning: false,
      supports_images: false,
      supports_tools: true,
      pricing: { input: 1, output: 2 },
    },
  ],
};
const principal = {
  kind: 'api_key',
  userId: 'u1',
  credentialId: 'k1',
  limits: { creditLimitNanos: null, rateLimitRpm: null, rateLimitTpm: null },
} as unknown as Principal;
const deps = {
  db: {} as never,
  leases: { reserve: async () => ({ ok: true }) } as never,
  now: () => new Date(),
  config: { passQuota: {} as never },
};

async function load(root: string) {
  const dist = path.resolve(root, 'dist/src');
  const admission = (await import(pathToFileURL(`${dist}/billing/admission.js`).href)) as typeof AdmissionModule;
  const catalog = (await import(pathToFileURL(`${dist}/catalog/parse-catalog.js`).href)) as typeof CatalogModule;
  const entry = catalog.parseCatalog(CATALOG, 'bench').models[0];
  return async (): Promise<number> => {
    const started = process.hrtime.bigint();
    for (let i = 0; i < CALLS; i++)
      await admission.admitCredits(deps, principal, entry, { estimatedPromptTokens: 20 + (i & 7), spend: {} });
    return Number(process.hrtime.bigint() - started) / CALLS;
  };
}

const trees = { before: await load(values.before), after: await load(values.after) };
const ns = { before: [] as number[], after: [] as number[] };
for (let round = 0; round < ROUNDS; round++)
  for (const label of round % 2 === 0 ? (['before', 'after'] as const) : (['after', 'before'] as const))
    ns[label].push(await trees[label]());
// The first two rounds warm up the optimizer.
const kept = (xs: number[]) => xs.slice(2);
const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const fmt = (xs: number[]) =>
  `${median(xs).toFixed(0)} ns (${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)})`;
const saved = kept(ns.before).map((before, i) => before - kept(ns.after)[i]);
console.log(`before ${fmt(kept(ns.before))}, after ${fmt(kept(ns.after))}, paired before − after ${fmt(saved)}`);
