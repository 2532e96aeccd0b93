// Invitations of the chosen organization (owners and admins): make one (its token and link are shown only this
// once; the gateway keeps only a hash), list the pending ones and revoke one before it is used.
async function loadInvitations() {
  const org = organizationState.current;
  const { data } = await api('GET', `/organizations/${encodeURIComponent(org.id)}/invitations`);
  byId('invitation-role').replaceChildren(
    ...assignableRoles().map((role) => el('option', { value: role, selected: role === 'member' }, role)),
  );
  byId('invitation-rows').replaceChildren(...data.map(invitationRow));
  byId('invitations-empty').hidden = data.length > 0;
  byId('invitations-table').hidden = data.length === 0;
}

function invitationRow(invitation) {
  return el(
    'tr',
    {},
    el('th', { scope: 'row' }, el('code', {}, invitation.invitation_id)),
    el('td', {}, invitation.role),
    el('td', {}, when(invitation.created_at)),
    el('td', {}, when(invitation.expires_at)),
    el(
      'td',
      { class: 'actions' },
      el(
        'button',
        { type: 'button', class: 'danger', onclick: () => revokeInvitation(invitation) },
        `Revoke invitation ${invitation.invitation_id}`,
      ),
    ),
  );
}

async function createInvitation(event) {
  event.preventDefault();
  const role = byId('invitation-role').value;
  await guarded(async () => {
    const org = organizationState.current;
    const created = await api('POST', `/organizations/${encodeURIComponent(org.id)}/invitations`, { role });
    // A fragment, not a query: the token stays in the browser that opens the link and reaches no server log.
    byId('new-invitation-link').value = `${location.origin}${location.pathname}#invitation=${created.token}`;
    byId('new-invitation-token').value = created.token;
    byId('new-invitation-role').textContent = created.role;
    byId('new-invitation').hidden = false;
    byId('new-invitation-link').focus();
    byId('new-invitation-link').select();
    await loadInvitations();
  });
}

async function revokeInvitation(invitation) {
  await guarded(async () => {
    const org = organizationState.current;
    await api(
      'DELETE',
      `/organizations/${encodeURIComponent(org.id)}/invitations/${encodeURIComponent(invitation.invitation_id)}`,
    );
    announce(`Invitation ${invitation.invitation_id} revoked: its token no longer works.`);
    await loadInvitations();
    byId('invitation-role').focus();
  });
}

function dismissInvitation() {
  for (const id of ['new-invitation-link', 'new-invitation-token']) byId(id).value = '';
  byId('new-invitation').hidden = true;
  byId('invitation-role').focus();
}

function startInvitations() {
  byId('create-invitation-form').addEventListener('submit', createInvitation);
  byId('dismiss-invitation').addEventListener('click', dismissInvitation);
}
