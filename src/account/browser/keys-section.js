// Keys: list, create (value shown once), delete with an inline confirmation. Per-key limits and disabling appear only
// when the API's key objects carry `limit` / `disabled` (feature detection: older gateways do not have them).
async function loadKeys() {
  const list = await api('GET', '/api-keys');
  renderKeys(list.data);
}

function keyFeatures(keys) {
  const sample = keys[0] || {};
  return { usage: 'usage' in sample, limits: 'limit' in sample, disabling: 'disabled' in sample };
}

function renderKeys(keys) {
  const features = keyFeatures(keys);
  const body = byId('keys-rows');
  body.replaceChildren();
  for (const key of keys) body.append(keyRow(key, features));
  byId('keys-empty').hidden = keys.length > 0;
  byId('keys-table').hidden = keys.length === 0;
  for (const id of ['keys-col-usage']) byId(id).hidden = !features.usage;
  for (const id of ['keys-col-limit', 'keys-col-remaining']) byId(id).hidden = !features.limits;
  byId('keys-col-state').hidden = !features.disabling;
}

function keyRow(key, features) {
  const actions = el('td', { class: 'actions' });
  const row = el(
    'tr',
    {},
    el('th', { scope: 'row' }, key.name),
    el('td', {}, el('code', {}, key.prefix)),
    el('td', {}, when(key.created_at)),
    el('td', {}, when(key.last_used_at)),
    features.usage ? el('td', { class: 'num' }, usd(key.usage)) : null,
    features.limits ? el('td', { class: 'num' }, key.limit === null ? 'none' : usd(key.limit)) : null,
    features.limits ? el('td', { class: 'num' }, key.limit_remaining === null ? '—' : usd(key.limit_remaining)) : null,
    features.disabling ? el('td', {}, key.disabled ? 'Disabled' : 'Active') : null,
    actions,
  );
  showKeyActions(actions, key, features);
  return row;
}

function showKeyActions(cell, key, features) {
  const buttons = [
    features.disabling
      ? el('button', { type: 'button', onclick: () => updateKey(key, { disabled: !key.disabled }) }, `${key.disabled ? 'Enable' : 'Disable'} ${key.name}`)
      : null,
    features.limits ? el('button', { type: 'button', onclick: () => showLimitForm(cell, key, features) }, `Edit limit of ${key.name}`) : null,
    el('button', { type: 'button', class: 'danger', onclick: () => confirmDelete(cell, key, features) }, `Delete ${key.name}`),
  ];
  cell.replaceChildren(...buttons.filter(Boolean));
}

function confirmDelete(cell, key, features) {
  const cancel = el('button', { type: 'button', onclick: () => showKeyActions(cell, key, features) }, 'Cancel');
  cell.replaceChildren(
    el('span', { role: 'group', 'aria-label': `Confirm deletion of ${key.name}` },
      el('span', {}, `Delete "${key.name}"? Programs using it stop working at once. `),
      el('button', { type: 'button', class: 'danger', onclick: () => deleteKey(key) }, 'Yes, delete'),
      cancel),
  );
  cancel.focus();
}

async function deleteKey(key) {
  await guarded(async () => {
    await api('DELETE', `/api-keys/${encodeURIComponent(key.key_id)}`);
    announce(`Key ${key.name} deleted.`);
    await loadKeys();
    byId('key-name').focus();
  });
}

function showLimitForm(cell, key, features) {
  const input = el('input', { id: `limit-${key.key_id}`, type: 'number', min: '0', step: '0.01', inputmode: 'decimal', value: key.limit === null ? '' : key.limit });
  const form = el('form', { class: 'inline-form', onsubmit: (event) => {
    event.preventDefault();
    const value = input.value.trim();
    updateKey(key, { limit: value === '' ? null : Number(value) });
  } },
  el('label', { for: input.id }, `Limit for ${key.name} in USD (empty: none)`), input,
  el('button', { type: 'submit' }, 'Save limit'),
  el('button', { type: 'button', onclick: () => showKeyActions(cell, key, features) }, 'Cancel'));
  cell.replaceChildren(form);
  input.focus();
}

async function updateKey(key, change) {
  await guarded(async () => {
    await api('PATCH', `/api-keys/${encodeURIComponent(key.key_id)}`, change);
    announce(`Key ${key.name} updated.`);
    await loadKeys();
  });
}

async function createKey(event) {
  event.preventDefault();
  const name = byId('key-name').value.trim();
  await guarded(async () => {
    const created = await api('POST', '/api-keys', name ? { name } : {});
    byId('new-key-value').value = created.key;
    byId('new-key-name').textContent = created.name;
    byId('new-key').hidden = false;
    byId('key-name').value = '';
    byId('new-key-value').focus();
    byId('new-key-value').select();
    await loadKeys();
  });
}

async function copyNewKey() {
  const value = byId('new-key-value').value;
  try {
    await navigator.clipboard.writeText(value);
    announce('Key copied to the clipboard.');
  } catch {
    // Clipboard access may be refused (permissions, insecure context): leave the value selected to copy by hand.
    byId('new-key-value').select();
    announce('Copying was refused by the browser: the key is selected, copy it with Ctrl+C.');
  }
}

function dismissNewKey() {
  // Forget the value: it is never shown again.
  byId('new-key-value').value = '';
  byId('new-key').hidden = true;
  byId('key-name').focus();
}
