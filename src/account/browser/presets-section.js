// Presets of the chosen organization: every member sees the latest version of each (and how to name it, pinned or
// not); owners and admins (with the account token) save a preset or its next version, or delete one with every
// version. The gateway checks slugs, models and limits (400 with the reason otherwise).
function editsPresets() {
  const current = organizationState.current;
  return current !== null && current.role !== 'member' && isAccountToken();
}

async function loadPresets() {
  if (!organizationState.current) return;
  const { data } = await api('GET', '/presets');
  byId('preset-rows').replaceChildren(...data.map(presetRow));
  byId('presets-empty').hidden = data.length > 0;
  byId('presets-table').hidden = data.length === 0;
  const editing = editsPresets();
  byId('create-preset-form').hidden = !editing;
  if (editing && byId('preset-models').childElementCount === 0) {
    const models = await api('GET', '/models');
    byId('preset-models').replaceChildren(
      ...models.data.filter((m) => !m.alias_for).map((m) => el('option', { value: m.id })),
    );
  }
}

function presetRow(preset) {
  const model = preset.preset.model ?? (preset.preset.models ?? [])[0] ?? '';
  return el(
    'tr',
    {},
    el('th', { scope: 'row' }, el('code', {}, `@preset/${preset.slug}`)),
    el('td', {}, `${preset.version}`),
    el('td', {}, el('code', {}, model)),
    el('td', {}, preset.description ?? ''),
    el('td', {}, when(preset.created_at)),
    el(
      'td',
      { class: 'actions' },
      editsPresets()
        ? el(
            'button',
            { type: 'button', class: 'danger', onclick: () => deletePreset(preset) },
            `Delete preset ${preset.slug}`,
          )
        : '',
    ),
  );
}

/** The form's settings: the fields filled in, as the API takes them. */
function presetSettings() {
  const settings = { model: byId('preset-model').value.trim() };
  const system = byId('preset-system').value.trim();
  const temperature = byId('preset-temperature').value.trim();
  const maxTokens = byId('preset-max-tokens').value.trim();
  if (system) settings.system = system;
  if (temperature) settings.temperature = Number(temperature);
  if (maxTokens) settings.max_tokens = Number(maxTokens);
  return settings;
}

async function savePreset(event) {
  event.preventDefault();
  const slug = byId('preset-slug').value.trim();
  const settings = presetSettings();
  if (!slug || !settings.model) {
    showError('Give the preset a slug and the catalog model it serves.');
    byId(slug ? 'preset-model' : 'preset-slug').focus();
    return;
  }
  const description = byId('preset-description').value.trim();
  await guarded(async () => {
    const body = description ? { slug, description, preset: settings } : { slug, preset: settings };
    const saved = await api('POST', '/presets', body);
    announce(`Preset ${saved.slug} version ${saved.version} saved: send "@preset/${saved.slug}" as the model.`);
    for (const id of ['preset-slug', 'preset-model', 'preset-system', 'preset-temperature', 'preset-max-tokens']) {
      byId(id).value = '';
    }
    byId('preset-description').value = '';
    await loadPresets();
    byId('preset-slug').focus();
  });
}

async function deletePreset(preset) {
  await guarded(async () => {
    await api('DELETE', `/presets/${encodeURIComponent(preset.slug)}`);
    announce(`Preset ${preset.slug} deleted with every version: requests naming it are refused now.`);
    await loadPresets();
    byId('presets-title').focus();
  });
}

function startPresets() {
  byId('create-preset-form').addEventListener('submit', savePreset);
}
