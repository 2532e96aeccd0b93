// Organizations: the switcher (every request then names the chosen one in X-Modelgate-Organization, so keys,
// credits and usage below are that organization's, as the signed-in member's role allows), creating an organization
// and accepting an invitation (from a link's #invitation= fragment, which never reaches a server, or a pasted token).
const organizationState = { list: [], current: null, me: null };

const isAccountToken = () => (credentialStore.get() || '').startsWith('mgt-v1-');

async function loadOrganizations() {
  const { data } = await api('GET', '/organizations', undefined, { organization: false });
  organizationState.list = data;
  // The personal organization's id is its user's: who "me" is in every member list.
  organizationState.me = data.find((o) => o.personal)?.id ?? null;
  const stored = organizationStore.get();
  const current = data.find((o) => o.id === stored) ?? data[0] ?? null;
  organizationState.current = current;
  if (current) organizationStore.set(current.id);
  else organizationStore.clear();
  renderSwitcher();
}

function organizationLabel(org) {
  return org.personal ? `${org.name} (personal)` : org.name;
}

function renderSwitcher() {
  const select = byId('org-switcher');
  select.replaceChildren(
    ...organizationState.list.map((org) =>
      el('option', { value: org.id, selected: org.id === organizationState.current?.id }, organizationLabel(org)),
    ),
  );
  const current = organizationState.current;
  byId('org-role').textContent = current
    ? `You are ${current.role === 'admin' ? 'an' : 'a'} ${current.role} of ${organizationLabel(current)}.`
    : '';
  byId('create-org-form').hidden = !isAccountToken();
  byId('accept-invitation-form').hidden = !isAccountToken();
}

async function switchOrganization() {
  const id = byId('org-switcher').value;
  organizationStore.set(id);
  await guarded(async () => {
    await loadAccount();
    announce(`Showing ${organizationLabel(organizationState.current)}.`);
  });
}

async function createOrganization(event) {
  event.preventDefault();
  const name = byId('org-name').value.trim();
  if (!name) {
    showError('Give the new organization a name first.');
    byId('org-name').focus();
    return;
  }
  await guarded(async () => {
    const org = await api('POST', '/organizations', { name }, { organization: false });
    byId('org-name').value = '';
    organizationStore.set(org.id);
    await loadAccount();
    announce(`Organization ${org.name} created; you are its owner.`);
    byId('org-switcher').focus();
  });
}

/** The token of an invitation link (`/account#invitation=mgi-v1-...`), if the page was opened from one. */
function invitationFromLink() {
  const match = /(?:^#|&)invitation=([^&]+)/.exec(location.hash);
  return match ? decodeURIComponent(match[1]) : '';
}

async function acceptInvitation(event) {
  event.preventDefault();
  const token = byId('invitation-token').value.trim();
  if (!token) {
    showError('Paste the invitation token (mgi-v1-...) first.');
    byId('invitation-token').focus();
    return;
  }
  await guarded(async () => {
    const org = await api('POST', `/invitations/${encodeURIComponent(token)}/accept`, undefined, {
      organization: false,
    });
    byId('invitation-token').value = '';
    // The link's token is spent: take it out of the address bar and the tab's history entry.
    if (invitationFromLink()) history.replaceState(null, '', location.pathname + location.search);
    organizationStore.set(org.id);
    await loadAccount();
    announce(`You joined ${org.name} as ${org.role}.`);
  });
}

function startOrganizations() {
  byId('org-switcher').addEventListener('change', switchOrganization);
  byId('create-org-form').addEventListener('submit', createOrganization);
  byId('accept-invitation-form').addEventListener('submit', acceptInvitation);
  const fromLink = invitationFromLink();
  if (fromLink) {
    byId('invitation-token').value = fromLink;
    announce('Opened from an invitation: sign in with your account token, then accept it.');
  }
}
