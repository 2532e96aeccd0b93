// results/<mode>.svg, drawn by hand: for each request kind, throughput and latency against concurrency, one
// line per system, log scales (the systems differ by more than an order of magnitude).
import { SCENARIO_LABELS, SYSTEM_LABELS, type Scenario, type SystemName } from './plan.js';
import type { BenchResults } from './results.js';
import { cell } from './aggregate.js';

const COLORS: Record<SystemName, string> = {
  mock: '#8c8c8c',
  passthrough: '#1f77b4',
  modelgate: '#d62728',
  portkey: '#9467bd',
};
const PANEL_W = 340;
const PANEL_H = 220;
const GAP_X = 90;
const GAP_Y = 80;
const LEFT = 70;
const TOP = 96;

interface Series {
  system: SystemName;
  dashed?: boolean;
  points: { c: number; v: number }[];
}

function esc(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function fmtTick(v: number): string {
  return v >= 1000 ? `${v / 1000}k` : String(v);
}

function panel(x0: number, y0: number, title: string, concurrencies: number[], series: Series[]): string {
  const values = series.flatMap((s) => s.points.map((p) => p.v)).filter((v) => v > 0);
  if (values.length === 0) return '';
  const lo = Math.floor(Math.log10(Math.min(...values)));
  const hi = Math.max(lo + 1, Math.ceil(Math.log10(Math.max(...values))));
  const y = (v: number) => y0 + PANEL_H - ((Math.log10(Math.max(v, 10 ** lo)) - lo) / (hi - lo)) * PANEL_H;
  const pad = 30;
  const x = (c: number) => {
    const i = concurrencies.indexOf(c);
    return concurrencies.length === 1
      ? x0 + PANEL_W / 2
      : x0 + pad + (i * (PANEL_W - 2 * pad)) / (concurrencies.length - 1);
  };
  const out: string[] = [
    `<text x="${x0}" y="${y0 - 12}" class="title">${esc(title)}</text>`,
    `<rect x="${x0}" y="${y0}" width="${PANEL_W}" height="${PANEL_H}" class="frame"/>`,
  ];
  for (let d = lo; d <= hi; d++) {
    for (const m of hi - lo <= 2 ? [1, 2, 5] : [1]) {
      const v = m * 10 ** d;
      if (Math.log10(v) > hi + 1e-9) continue;
      const yy = y(v).toFixed(1);
      out.push(
        `<line x1="${x0}" x2="${x0 + PANEL_W}" y1="${yy}" y2="${yy}" class="${m === 1 ? 'grid' : 'minor'}"/>`,
        `<text x="${x0 - 6}" y="${yy}" class="ytick">${fmtTick(Number(v.toPrecision(3)))}</text>`,
      );
    }
  }
  for (const c of concurrencies)
    out.push(`<text x="${x(c).toFixed(1)}" y="${y0 + PANEL_H + 16}" class="xtick">c=${c}</text>`);
  for (const s of series) {
    if (s.points.length === 0) continue;
    const pts = s.points.map((p) => `${x(p.c).toFixed(1)},${y(p.v).toFixed(1)}`);
    out.push(
      `<polyline points="${pts.join(' ')}" fill="none" stroke="${COLORS[s.system]}" stroke-width="2"${s.dashed ? ' stroke-dasharray="5 4"' : ''}/>`,
    );
    for (const p of s.points) {
      out.push(
        `<circle cx="${x(p.c).toFixed(1)}" cy="${y(p.v).toFixed(1)}" r="3" fill="${s.dashed ? '#fff' : COLORS[s.system]}" stroke="${COLORS[s.system]}">` +
          `<title>${esc(`${SYSTEM_LABELS[s.system]}, c=${p.c}: ${p.v}`)}</title></circle>`,
      );
    }
  }
  return out.join('\n');
}

export function renderSvg(results: BenchResults): string {
  const grid = new Map<Scenario, number[]>();
  for (const { scenario, concurrency } of results.plan.grid)
    grid.set(scenario, [...(grid.get(scenario) ?? []), concurrency]);
  const scenarios = [...grid.keys()];
  const width = LEFT + scenarios.length * (PANEL_W + GAP_X);
  const height = TOP + 2 * (PANEL_H + GAP_Y);
  const parts: string[] = [];
  scenarios.forEach((scenario, col) => {
    const cs = grid.get(scenario)!;
    const x0 = LEFT + col * (PANEL_W + GAP_X);
    const throughput: Series[] = results.systems.map((system) => ({
      system,
      points: cs.flatMap((c) => {
        const v = cell(results, system, scenario, c)?.rps;
        return v === undefined ? [] : [{ c, v }];
      }),
    }));
    parts.push(panel(x0, TOP, `${SCENARIO_LABELS[scenario]}: req/s`, cs, throughput));
    const latency: Series[] = results.systems.flatMap((system) =>
      (['p50', 'p99'] as const).map((q) => ({
        system,
        dashed: q === 'p99',
        points: cs.flatMap((c) => {
          const v = cell(results, system, scenario, c)?.[q];
          // A log scale has no zero: anything under 10 µs is drawn at 10 µs.
          return v === undefined ? [] : [{ c, v: Math.max(v, 0.01) }];
        }),
      })),
    );
    parts.push(
      panel(x0, TOP + PANEL_H + GAP_Y, `${SCENARIO_LABELS[scenario]}: latency ms (p50 —, p99 - -)`, cs, latency),
    );
  });
  const legend = results.systems.map(
    (s, i) =>
      `<g transform="translate(${LEFT + i * 250},56)"><line x1="0" x2="24" y1="0" y2="0" stroke="${COLORS[s]}" stroke-width="3"/><text x="30" y="4" class="legend">${esc(SYSTEM_LABELS[s])}</text></g>`,
  );
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="Helvetica, Arial, sans-serif">`,
    '<style>.title{font-size:13px;font-weight:bold}.legend{font-size:13px}.ytick{font-size:11px;text-anchor:end;dominant-baseline:middle;fill:#444}' +
      '.xtick{font-size:11px;text-anchor:middle;fill:#444}.frame{fill:none;stroke:#999}.grid{stroke:#ddd}.minor{stroke:#f0f0f0}.note{font-size:11px;fill:#666}</style>',
    `<rect width="${width}" height="${height}" fill="#fff"/>`,
    `<text x="${LEFT}" y="26" font-size="16" font-weight="bold">${esc(`Modelgate beside its peers — ${results.mode} run, ${results.startedAt.slice(0, 10)}`)}</text>`,
    `<text x="${LEFT}" y="42" class="note">${esc(`Medians of ${results.plan.reps} run(s) per point, log scales; latency of whole responses (streams: until [DONE]) under closed-loop load.`)}</text>`,
    ...legend,
    ...parts,
    '</svg>',
    '',
  ].join('\n');
}
