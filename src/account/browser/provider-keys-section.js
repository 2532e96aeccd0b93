// The chosen organization's own provider keys: every member sees them masked; owners and admins (signed in with the
// account token) set one for a provider with its mode and delete one. The key typed is sent once and cleared from the
// page at once; the gateway never shows it again.
function managesProviderKeys() {
  const current = organizationState.current;
  return current !== null && current.role !== 'member' && isAccountToken();
}

async function loadProviderKeys() {
  if (!organizationState.current) return;
  const { data } = await api('GET', '/provider-keys');
  const manages = managesProviderKeys();
  byId('provider-key-form').hidden = !manages;
  byId('provider-key-rows').replaceChildren(...data.map((key) => providerKeyRow(key, manages)));
  byId('provider-keys-empty').hidden = data.length > 0;
  byId('provider-keys-table').hidden = data.length === 0;
}

function providerKeyRow(key, manages) {
  return el(
    'tr',
    {},
    el('th', { scope: 'row' }, key.provider),
    el('td', {}, el('code', {}, key.key_hint)),
    el('td', {}, key.mode),
    el('td', {}, when(key.updated_at)),
    el(
      'td',
      { class: 'actions' },
      manages
        ? el(
            'button',
            { type: 'button', class: 'danger', onclick: () => deleteProviderKey(key.provider) },
            `Delete ${key.provider} key`,
          )
        : null,
    ),
  );
}

async function saveProviderKey(event) {
  event.preventDefault();
  const provider = byId('provider-key-provider').value.trim();
  const input = byId('provider-key-value');
  const key = input.value.trim();
  if (!provider || !key) {
    showError('Give the provider and its API key first.');
    (provider ? input : byId('provider-key-provider')).focus();
    return;
  }
  const mode = byId('provider-key-mode').value;
  // Gone from the page before the answer: a failed save asks for the key again.
  input.value = '';
  await guarded(async () => {
    const saved = await api('PUT', `/provider-keys/${encodeURIComponent(provider)}`, { key, mode });
    byId('provider-key-provider').value = '';
    announce(`Saved the ${saved.provider} key ${saved.key_hint} (${saved.mode}).`);
    await loadProviderKeys();
  });
}

async function deleteProviderKey(provider) {
  await guarded(async () => {
    await api('DELETE', `/provider-keys/${encodeURIComponent(provider)}`);
    announce(`Deleted the ${provider} key: requests use the gateway's keys again.`);
    await loadProviderKeys();
    byId('provider-key-provider').focus();
  });
}

function startProviderKeys() {
  byId('provider-key-form').addEventListener('submit', saveProviderKey);
}
