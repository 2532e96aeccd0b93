// Usage chart: cost and requests per UTC day for 30 days, stacked by model, drawn as SVG. Each model has a colour
// AND a fill pattern (and the legend names both), so the chart reads without colour; a table repeats the numbers.
const CHART_DAYS = 30;
const SERIES_STYLES = [
  { color: '#1f4e9c', pattern: 'solid' },
  { color: '#b3541e', pattern: 'stripes' },
  { color: '#2e7d32', pattern: 'dots' },
  { color: '#6a1b9a', pattern: 'cross' },
  { color: '#8a6d00', pattern: 'backslash' },
  { color: '#00695c', pattern: 'grid' },
];

function lastDays(count) {
  const days = [];
  const today = new Date();
  const start = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate());
  for (let i = count - 1; i >= 0; i--) days.push(new Date(start - i * 86_400_000).toISOString().slice(0, 10));
  return days;
}

function patternDefs(prefix, models) {
  return svg(
    'defs',
    {},
    models.map((_, i) => {
      const { color, pattern } = SERIES_STYLES[i % SERIES_STYLES.length];
      const id = `${prefix}-p${i}`;
      const base = svg('rect', { width: 8, height: 8, fill: color });
      const light = { stroke: '#ffffff', 'stroke-width': 2 };
      const marks = {
        solid: [],
        stripes: [svg('path', { d: 'M-2,2 l4,-4 M0,8 l8,-8 M6,10 l4,-4', ...light })],
        dots: [svg('circle', { cx: 4, cy: 4, r: 1.8, fill: '#ffffff' })],
        cross: [svg('path', { d: 'M0,4 H8 M4,0 V8', ...light })],
        backslash: [svg('path', { d: 'M-2,6 l4,4 M0,0 l8,8 M6,-2 l4,4', ...light })],
        grid: [svg('path', { d: 'M0,0 H8 V8', fill: 'none', ...light })],
      }[pattern];
      return svg('pattern', { id, width: 8, height: 8, patternUnits: 'userSpaceOnUse' }, base, ...marks);
    }),
  );
}

/** One stacked bar chart: `values[model][day]`. */
function stackedBars({ id, title, models, days, values, format }) {
  const width = 640,
    height = 220,
    left = 56,
    bottom = 28,
    top = 10;
  const totals = days.map((_, d) => models.reduce((sum, m) => sum + values[m][d], 0));
  const max = Math.max(...totals, 0) || 1;
  const plotH = height - top - bottom,
    slot = (width - left - 8) / days.length,
    barW = Math.max(slot - 3, 2);
  const y = (v) => top + plotH - (v / max) * plotH;
  const bars = [];
  days.forEach((day, d) => {
    let acc = 0;
    models.forEach((model, m) => {
      const v = values[model][d];
      if (!v) return;
      const rect = svg('rect', {
        x: left + d * slot,
        y: y(acc + v),
        width: barW,
        height: Math.max(y(acc) - y(acc + v), 1),
        fill: `url(#${id}-p${m})`,
        stroke: '#222',
        'stroke-width': 0.5,
      });
      rect.append(svg('title', {}, `${day}, ${model}: ${format(v)}`));
      bars.push(rect);
      acc += v;
    });
  });
  const axis = [
    svg('line', { x1: left, y1: top + plotH, x2: width - 4, y2: top + plotH, stroke: '#333' }),
    svg('text', { x: left - 6, y: top + 10, 'text-anchor': 'end', class: 'tick' }, format(max)),
    svg('text', { x: left - 6, y: top + plotH, 'text-anchor': 'end', class: 'tick' }, format(0)),
    svg('text', { x: left, y: height - 8, class: 'tick' }, days[0].slice(5)),
    svg('text', { x: width - 4, y: height - 8, 'text-anchor': 'end', class: 'tick' }, days[days.length - 1].slice(5)),
  ];
  const total = totals.reduce((a, b) => a + b, 0);
  return svg(
    'svg',
    { viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-labelledby': `${id}-title ${id}-desc`, class: 'chart', id },
    svg('title', { id: `${id}-title` }, title),
    svg(
      'desc',
      { id: `${id}-desc` },
      `Stacked bars for ${days.length} days, ${models.length} models; total ${format(total)}. The table below lists every value.`,
    ),
    patternDefs(id, models),
    ...axis,
    ...bars,
  );
}

/** What the response cache saved over the window: answers from the cache, and their originals' cost less theirs. */
function renderCacheSavings(items) {
  const hits = items.reduce((sum, item) => sum + (item.cache_hits || 0), 0);
  const saved = items.reduce((sum, item) => sum + (item.cache_savings || 0), 0);
  byId('cache-savings').hidden = hits === 0;
  byId('cache-saved').textContent = usd(saved);
  byId('cache-hits').textContent = integer(hits);
}

function renderUsage(items) {
  renderCacheSavings(items);
  const days = lastDays(CHART_DAYS);
  const models = [...new Set(items.map((item) => item.model))].sort();
  const cost = {},
    requests = {};
  for (const model of models) {
    cost[model] = days.map(() => 0);
    requests[model] = days.map(() => 0);
  }
  for (const item of items) {
    const d = days.indexOf(item.date);
    if (d < 0) continue;
    cost[item.model][d] += item.usage;
    requests[item.model][d] += item.requests;
  }
  const empty = models.length === 0;
  byId('usage-empty').hidden = !empty;
  byId('usage-body').hidden = empty;
  if (empty) return;
  byId('usage-charts').replaceChildren(
    el(
      'figure',
      {},
      el('figcaption', {}, 'Cost per day (USD)'),
      stackedBars({
        id: 'chart-cost',
        title: 'Cost per day in USD, stacked by model',
        models,
        days,
        values: cost,
        format: usd,
      }),
    ),
    el(
      'figure',
      {},
      el('figcaption', {}, 'Requests per day'),
      stackedBars({
        id: 'chart-requests',
        title: 'Requests per day, stacked by model',
        models,
        days,
        values: requests,
        format: (v) => integer(Math.round(v)),
      }),
    ),
  );
  byId('usage-legend').replaceChildren(
    ...models.map((model, m) => {
      const style = SERIES_STYLES[m % SERIES_STYLES.length];
      return el(
        'li',
        {},
        svg(
          'svg',
          { width: 18, height: 18, viewBox: '0 0 18 18', 'aria-hidden': 'true' },
          patternDefs(`legend${m}`, models.slice(0, m + 1)),
          svg('rect', { width: 18, height: 18, fill: `url(#legend${m}-p${m})`, stroke: '#222' }),
        ),
        ` ${model} (${style.pattern === 'solid' ? 'solid' : style.pattern} fill)`,
      );
    }),
  );
  const rows = items
    .filter((item) => days.includes(item.date))
    .slice()
    .reverse();
  byId('usage-rows').replaceChildren(
    ...rows.map((item) =>
      el(
        'tr',
        {},
        el('td', {}, item.date),
        el('th', { scope: 'row' }, item.model),
        el('td', { class: 'num' }, integer(item.requests)),
        el('td', { class: 'num' }, `${integer(item.prompt_tokens)} + ${integer(item.completion_tokens)}`),
        el('td', { class: 'num' }, usd(item.usage)),
      ),
    ),
  );
}

async function loadUsage() {
  renderUsage((await api('GET', `/activity?days=${CHART_DAYS}`)).data);
}
