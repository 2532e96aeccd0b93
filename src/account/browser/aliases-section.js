// Model aliases of the chosen organization: every member sees them; owners and admins (with the account token) name a
// catalog model ("coder" for the model the team codes with), point a name at another model, or delete one. The
// gateway checks names and models (400 with the reason otherwise); the model field suggests the catalog's ids.
function editsAliases() {
  const current = organizationState.current;
  return current !== null && current.role !== 'member' && isAccountToken();
}

async function loadAliases() {
  if (!organizationState.current) return;
  const { data } = await api('GET', '/aliases');
  byId('alias-rows').replaceChildren(...data.map(aliasRow));
  byId('aliases-empty').hidden = data.length > 0;
  byId('aliases-table').hidden = data.length === 0;
  const editing = editsAliases();
  byId('create-alias-form').hidden = !editing;
  if (editing && byId('alias-models').childElementCount === 0) {
    const models = await api('GET', '/models');
    byId('alias-models').replaceChildren(
      ...models.data.filter((m) => !m.alias_for).map((m) => el('option', { value: m.id })),
    );
  }
}

function aliasRow(alias) {
  return el(
    'tr',
    {},
    el('th', { scope: 'row' }, el('code', {}, alias.name)),
    el('td', {}, el('code', {}, alias.model)),
    el('td', {}, alias.description ?? ''),
    el('td', {}, when(alias.updated_at)),
    el(
      'td',
      { class: 'actions' },
      editsAliases()
        ? el(
            'button',
            { type: 'button', class: 'danger', onclick: () => deleteAlias(alias) },
            `Delete alias ${alias.name}`,
          )
        : '',
    ),
  );
}

async function saveAlias(event) {
  event.preventDefault();
  const name = byId('alias-name').value.trim();
  const model = byId('alias-model').value.trim();
  const description = byId('alias-description').value.trim();
  if (!name || !model) {
    showError('Give the alias a name and the catalog model it stands for.');
    byId(name ? 'alias-model' : 'alias-name').focus();
    return;
  }
  await guarded(async () => {
    const body = description ? { model, description } : { model };
    const saved = await api('PUT', `/aliases/${encodeURIComponent(name)}`, body);
    announce(`Alias ${saved.name} now names ${saved.model}.`);
    for (const id of ['alias-name', 'alias-model', 'alias-description']) byId(id).value = '';
    await loadAliases();
    byId('alias-name').focus();
  });
}

async function deleteAlias(alias) {
  await guarded(async () => {
    await api('DELETE', `/aliases/${encodeURIComponent(alias.name)}`);
    announce(`Alias ${alias.name} deleted: requests naming it are refused now.`);
    await loadAliases();
    byId('aliases-title').focus();
  });
}

function startAliases() {
  byId('create-alias-form').addEventListener('submit', saveAlias);
}
