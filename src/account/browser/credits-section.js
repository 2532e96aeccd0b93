// Credits: balance, total used, and the latest 50 generations; each row opens its full record (GET /generation).
async function loadCredits() {
  const credits = (await api('GET', '/credits')).data;
  byId('balance').textContent = usd(credits.total_credits - credits.total_usage);
  byId('total-credits').textContent = usd(credits.total_credits);
  byId('total-used').textContent = usd(credits.total_usage);
}

async function loadGenerations() {
  const { data } = await api('GET', '/generations?limit=50');
  const body = byId('generation-rows');
  body.replaceChildren();
  for (const gen of data) {
    body.append(
      el(
        'tr',
        {},
        el('td', {}, when(gen.created_at)),
        el(
          'th',
          { scope: 'row' },
          el(
            'button',
            { type: 'button', class: 'link', onclick: (event) => openGeneration(gen.id, event.currentTarget) },
            gen.model,
          ),
        ),
        el('td', {}, gen.provider_name),
        el('td', { class: 'num' }, `${integer(gen.tokens_prompt)} + ${integer(gen.tokens_completion)}`),
        el('td', { class: 'num' }, usd(gen.total_cost)),
        el(
          'td',
          {},
          (gen.status === 'success'
            ? 'OK'
            : gen.status === 'error'
              ? `Error ${gen.error_code || ''}`.trim()
              : 'Aborted') + (gen.cache_hit ? ' (from cache)' : ''),
        ),
      ),
    );
  }
  byId('generations-empty').hidden = data.length > 0;
  byId('generations-table').hidden = data.length === 0;
}

// The record's USD fields, shown in the page's one money format.
const RECORD_MONEY = new Set(['total_cost', 'reference_cost', 'cache_savings']);

function recordValue(name, value) {
  if (value === null) return 'null';
  if (RECORD_MONEY.has(name)) return usd(value);
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

async function openGeneration(id, opener) {
  await guarded(async () => {
    const record = (await api('GET', `/generation?id=${encodeURIComponent(id)}`)).data;
    const list = el('dl', { class: 'record' });
    for (const [name, value] of Object.entries(record)) {
      list.append(el('dt', {}, name), el('dd', {}, recordValue(name, value)));
    }
    const panel = byId('generation-detail');
    panel.replaceChildren(
      el('h3', { id: 'generation-detail-title', tabindex: '-1' }, `Generation ${record.id}`),
      list,
      el(
        'button',
        {
          type: 'button',
          onclick: () => {
            panel.hidden = true;
            // Back to where the keyboard user was, not to the top of the page.
            if (opener?.isConnected) opener.focus();
          },
        },
        'Close record',
      ),
    );
    panel.hidden = false;
    byId('generation-detail-title').focus();
  });
}
