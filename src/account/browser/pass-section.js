// Pass: the three quota windows as meters, shown only to subscribers. GET /pass/usage answers every account (active:
// false without a subscription), so the page asks once and never logs a refused request in the console.
const PASS_WINDOWS = [
  ['five_hour', 'Last 5 hours'],
  ['weekly', 'This week'],
  ['monthly', 'This month'],
];

async function loadPass() {
  const usage = await api('GET', '/pass/usage');
  if (!usage.active) {
    byId('pass').hidden = true;
    return;
  }
  byId('pass-period').textContent =
    `Subscription period ${when(usage.subscription.period_start)} – ${when(usage.subscription.period_end)}`;
  byId('pass-meters').replaceChildren(
    ...PASS_WINDOWS.map(([name, label]) => {
      const window = usage[name];
      const id = `pass-meter-${name}`;
      const percent = window.limit > 0 ? Math.round((window.used / window.limit) * 100) : 0;
      return el(
        'div',
        { class: 'meter-row' },
        el('label', { for: id }, label),
        el('meter', {
          id,
          min: 0,
          max: window.limit,
          low: window.limit * 0.7,
          high: window.limit * 0.9,
          optimum: 0,
          value: window.used,
        }),
        el(
          'p',
          { class: 'meter-text' },
          `${usd(window.used)} of ${usd(window.limit)} used (${percent}%), resets ${when(window.resets_at)}`,
        ),
      );
    }),
  );
  byId('pass').hidden = false;
}
