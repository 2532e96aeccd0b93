// Credits: balance, total used, and the latest 50 generations; each row opens its full record (GET /generation).
async function loadCredits() {
  const credits = (await api('GET', '/credits')).data;
  byId('balance').textContent = usd(credits.total_credits - credits.total_usage, 2);
  byId('total-credits').textContent = usd(credits.total_credits, 2);
  byId('total-used').textContent = usd(credits.total_usage, 4);
}

async function loadGenerations() {
  const { data } = await api('GET', '/generations?limit=50');
  const body = byId('generation-rows');
  body.replaceChildren();
  for (const gen of data) {
    body.append(
      el('tr', {},
        el('td', {}, when(gen.created_at)),
        el('th', { scope: 'row' }, el('button', { type: 'button', class: 'link', onclick: (event) => openGeneration(gen.id, event.currentTarget) }, gen.model)),
        el('td', {}, gen.provider_name),
        el('td', { class: 'num' }, `${integer(gen.tokens_prompt)} + ${integer(gen.tokens_completion)}`),
        el('td', { class: 'num' }, usd(gen.total_cost)),
        el('td', {}, gen.status === 'success' ? 'OK' : gen.status === 'error' ? `Error ${gen.error_code || ''}`.trim() : 'Aborted')),
    );
  }
  byId('generations-empty').hidden = data.length > 0;
  byId('generations-table').hidden = data.length === 0;
}

async function openGeneration(id, opener) {
  await guarded(async () => {
    const record = (await api('GET', `/generation?id=${encodeURIComponent(id)}`)).data;
    const list = el('dl', { class: 'record' });
    for (const [name, value] of Object.entries(record)) {
      list.append(el('dt', {}, name), el('dd', {}, value === null ? 'null' : String(value)));
    }
    const panel = byId('generation-detail');
    panel.replaceChildren(
      el('h3', { id: 'generation-detail-title', tabindex: '-1' }, `Generation ${record.id}`),
      list,
      el('button', { type: 'button', onclick: () => {
        panel.hidden = true;
        // Back to where the keyboard user was, not to the top of the page.
        if (opener && opener.isConnected) opener.focus();
      } }, 'Close record'),
    );
    panel.hidden = false;
    byId('generation-detail-title').focus();
  });
}
