// `make compatibility`: every client × family × turn against the gateway on the recorded upstream, a few cells at
// once, then docs/compatibility.md from the results. Narrow a run with --client, --family, --turn (repeatable; a
// narrowed run prints its results and leaves the committed table alone unless --write is given too); --keep keeps
// failed cells' HOME folders; COMPAT_CONCURRENCY sets how many clients run at once (default 2).
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { CLIENTS } from './clients/index.js';
import { FAMILIES, runCell, type CellResult, type Turn } from './cells.js';
import { startGatewayUnderTest } from './gateway-under-test.js';
import { renderReport } from './write-report.js';
import { RecordedUpstream } from './upstream/recorded-upstream.js';

const { values } = parseArgs({
  options: {
    client: { type: 'string', multiple: true },
    family: { type: 'string', multiple: true },
    turn: { type: 'string', multiple: true },
    keep: { type: 'boolean' },
    write: { type: 'boolean' },
    out: { type: 'string', default: 'docs/compatibility.md' },
  },
});
const narrowed = Boolean(values.client || values.family || values.turn);
const clients = CLIENTS.filter((c) => !values.client || values.client.includes(c.id));
const families = FAMILIES.filter((f) => !values.family || values.family.includes(f.id));
const turns = (['plain', 'tool'] as Turn[]).filter((t) => !values.turn || values.turn.includes(t));
// A client on its own default model, alone after the rest: the 404 check reads the gateway's log during the cell.
const defaultsCells =
  values.turn && !values.turn.includes('defaults')
    ? []
    : clients.flatMap((client) =>
        families.filter((family) => family.id === client.defaultFamily).map((family) => ({ client, family })),
      );
const concurrency = Math.max(1, Number(process.env.COMPAT_CONCURRENCY ?? 2));

const upstream = await new RecordedUpstream().start();
const gateway = await startGatewayUnderTest(upstream);
const started = new Date();
const queue = clients.flatMap((client) =>
  families.flatMap((family) => turns.map((turn) => ({ client, family, turn }))),
);
const results: CellResult[] = [];
try {
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        const result = await runCell(next.client, next.family, next.turn, gateway, upstream, { keep: values.keep });
        results.push(result);
        console.log(
          `${result.ok ? 'ok  ' : 'FAIL'} ${result.client} × ${result.family} × ${result.turn} (${(result.ms / 1000).toFixed(1)} s)${result.transport ? ` over ${result.transport}` : ''}${result.ok ? '' : `: ${result.detail}`}${result.home ? ` [HOME kept: ${result.home}]` : ''}`,
        );
      }
    }),
  );
  for (const { client, family } of defaultsCells) {
    const result = await runCell(client, family, 'defaults', gateway, upstream, { keep: values.keep });
    results.push(result);
    console.log(
      `${result.ok ? 'ok  ' : 'FAIL'} ${client.id} × ${family.id} × defaults${result.ok ? '' : `: ${result.detail}`}`,
    );
  }
} finally {
  await gateway.close();
  await upstream.close();
}
const seconds = Math.round((Date.now() - started.getTime()) / 1000);
console.log(`${results.filter((r) => r.ok).length}/${results.length} cells pass, ${seconds} s`);
if (!narrowed || values.write) {
  const dirty =
    execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { encoding: 'utf8' }).trim() !== '';
  const commit =
    execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim() +
    (dirty ? ' (with uncommitted changes)' : '');
  writeFileSync(values.out!, renderReport({ results, clients, families, started, seconds, concurrency, commit }));
  console.log(`wrote ${values.out}`);
}
// The table is written either way; the exit code says whether every cell passed.
process.exitCode = results.every((r) => r.ok) ? 0 : 1;
