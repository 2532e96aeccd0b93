// Keys: list, create (value shown once), delete with an inline confirmation. Per-key limits and disabling appear only
// when the API's key objects carry `limit` / `disabled` (feature detection: older gateways do not have them).
//
// Key scopes: the gateway decides what the signed-in credential may do (403 otherwise); the page only leaves out the
// buttons it would refuse. The account token manages every key and creates management keys; a management key
// manages inference keys and may revoke itself; an API key may only revoke itself.
async function loadKeys() {
  const [list, scope] = await Promise.all([api('GET', '/api-keys'), loadCredentialScope()]);
  renderKeys(list.data, scope);
}

/** GET /key describes the signed-in key (its kind and id); an account token has none to describe (404). */
async function loadCredentialScope() {
  // The account token's documented prefix says what it is, without a request the gateway would answer 404.
  if ((credentialStore.get() || '').startsWith('mgt-v1-')) return { kind: 'account_token', keyId: null };
  try {
    const self = await api('GET', '/key');
    return { kind: self.data.kind, keyId: self.data.key_id };
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return { kind: 'account_token', keyId: null };
    throw error;
  }
}

/** Whether the signed-in credential may change (`update`) or delete (`delete`) this key. */
function mayChange(scope, key, change) {
  if (scope.kind === 'account_token') return true;
  if (change === 'delete' && key.key_id === scope.keyId) return true;
  return scope.kind === 'management' && key.kind !== 'management';
}

const SCOPE_HINTS = {
  inference:
    'Signed in with an API key: it can see the account and revoke itself. To create, change or delete keys, sign in with your account token (npx modelgate tokens create) or a management key.',
  management:
    'Signed in with a management key: it creates, changes and deletes API keys and can revoke itself; management keys are managed with the account token.',
};

function showScope(scope) {
  const hint = SCOPE_HINTS[scope.kind];
  byId('keys-scope').textContent = hint || '';
  byId('keys-scope').hidden = !hint;
  byId('create-key-form').hidden = scope.kind === 'inference';
  // Only the account token creates management keys.
  byId('key-manage-field').hidden = scope.kind !== 'account_token';
}

function keyFeatures(keys) {
  const sample = keys[0] || {};
  return {
    usage: 'usage' in sample,
    limits: 'limit' in sample,
    disabling: 'disabled' in sample,
    kind: 'kind' in sample,
    // Whose key it is, in a shared organization (a personal one has one member).
    member: 'member_id' in sample && organizationState.current !== null && !organizationState.current.personal,
  };
}

function renderKeys(keys, scope) {
  const features = keyFeatures(keys);
  features.scope = scope;
  showScope(scope);
  const body = byId('keys-rows');
  body.replaceChildren();
  for (const key of keys) body.append(keyRow(key, features));
  byId('keys-empty').hidden = keys.length > 0;
  byId('keys-table').hidden = keys.length === 0;
  for (const id of ['keys-col-usage']) byId(id).hidden = !features.usage;
  for (const id of ['keys-col-limit', 'keys-col-remaining']) byId(id).hidden = !features.limits;
  byId('keys-col-state').hidden = !features.disabling;
  byId('keys-col-kind').hidden = !features.kind;
  byId('keys-col-member').hidden = !features.member;
}

function keyRow(key, features) {
  const actions = el('td', { class: 'actions' });
  const row = el(
    'tr',
    {},
    el('th', { scope: 'row' }, key.name),
    el('td', {}, el('code', {}, key.prefix)),
    features.kind ? el('td', {}, key.kind === 'management' ? 'Management' : 'API') : null,
    features.member ? el('td', {}, memberEmails.get(key.member_id) ?? key.member_id) : null,
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
  const changeable = mayChange(features.scope, key, 'update');
  const buttons = [
    features.disabling && changeable
      ? el(
          'button',
          { type: 'button', onclick: () => updateKey(key, { disabled: !key.disabled }) },
          `${key.disabled ? 'Enable' : 'Disable'} ${key.name}`,
        )
      : null,
    // A management key has no limit: it calls no model.
    features.limits && changeable && key.kind !== 'management'
      ? el('button', { type: 'button', onclick: () => showLimitForm(cell, key, features) }, `Edit limit of ${key.name}`)
      : null,
    mayChange(features.scope, key, 'delete')
      ? el(
          'button',
          { type: 'button', class: 'danger', onclick: () => confirmDelete(cell, key, features) },
          `Delete ${key.name}`,
        )
      : null,
  ];
  cell.replaceChildren(...buttons.filter(Boolean));
}

function confirmDelete(cell, key, features) {
  const cancel = el('button', { type: 'button', onclick: () => showKeyActions(cell, key, features) }, 'Cancel');
  const self =
    key.key_id === features.scope.keyId ? ' This is the key you signed in with: you will be signed out.' : '';
  cell.replaceChildren(
    el(
      'span',
      { role: 'group', 'aria-label': `Confirm deletion of ${key.name}` },
      el('span', {}, `Delete "${key.name}"? Programs using it stop working at once.${self} `),
      el('button', { type: 'button', class: 'danger', onclick: () => deleteKey(key, features.scope) }, 'Yes, delete'),
      cancel,
    ),
  );
  cancel.focus();
}

async function deleteKey(key, scope) {
  await guarded(async () => {
    await api('DELETE', `/api-keys/${encodeURIComponent(key.key_id)}`);
    if (key.key_id === scope.keyId) {
      // The credential of this tab is gone: nothing more can be read with it.
      signOut(false);
      announce(`Key ${key.name} deleted. It was the key you signed in with, so you are signed out.`);
      return;
    }
    announce(`Key ${key.name} deleted.`);
    await loadKeys();
    byId('key-name').focus();
  });
}

function showLimitForm(cell, key, features) {
  const input = el('input', {
    id: `limit-${key.key_id}`,
    type: 'number',
    min: '0',
    step: '0.01',
    inputmode: 'decimal',
    value: key.limit === null ? '' : key.limit,
  });
  const form = el(
    'form',
    {
      class: 'inline-form',
      onsubmit: (event) => {
        event.preventDefault();
        const value = input.value.trim();
        updateKey(key, { limit: value === '' ? null : Number(value) });
      },
    },
    el('label', { for: input.id }, `Limit for ${key.name} in USD (empty: none)`),
    input,
    el('button', { type: 'submit' }, 'Save limit'),
    el('button', { type: 'button', onclick: () => showKeyActions(cell, key, features) }, 'Cancel'),
  );
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

/** Owners and admins of a shared organization may make a key for another member (a CI job's key, say). */
function renderKeyMemberChoice(members) {
  memberEmails.clear();
  for (const member of members) memberEmails.set(member.user_id, member.email);
  const field = byId('key-member-field');
  field.hidden = !managesMembers();
  byId('key-member').replaceChildren(
    ...members.map((m) => el('option', { value: m.user_id, selected: m.user_id === organizationState.me }, m.email)),
  );
}

const memberEmails = new Map();

async function createKey(event) {
  event.preventDefault();
  const name = byId('key-name').value.trim();
  const manage = !byId('key-manage-field').hidden && byId('key-manage').checked;
  const member = byId('key-member-field').hidden ? '' : byId('key-member').value;
  await guarded(async () => {
    const created = await api('POST', '/api-keys', {
      ...(name ? { name } : {}),
      ...(manage ? { kind: 'management' } : {}),
      ...(member && member !== organizationState.me ? { member_id: member } : {}),
    });
    byId('new-key-value').value = created.key;
    byId('new-key-name').textContent = created.name;
    byId('new-key').hidden = false;
    byId('key-name').value = '';
    byId('key-manage').checked = false;
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
