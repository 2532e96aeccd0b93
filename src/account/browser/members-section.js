// Members of the chosen organization: owners and admins see everyone, change roles, remove members and make and
// revoke invitations (a new one's token and link are shown once); a member sees itself and may leave. The gateway
// decides (403 otherwise); the page leaves out what it would refuse.
const ROLES = ['owner', 'admin', 'member'];

function managesMembers() {
  const current = organizationState.current;
  return current !== null && !current.personal && current.role !== 'member';
}

async function loadMembers() {
  const current = organizationState.current;
  if (!current) return;
  const { data } = await api('GET', `/organizations/${encodeURIComponent(current.id)}/members`);
  renderMembers(data);
  renderKeyMemberChoice(data);
  byId('invitations').hidden = !managesMembers() || !isAccountToken();
  if (!byId('invitations').hidden) await loadInvitations();
}

/** The roles this member may give: an admin neither makes nor changes owners. */
function assignableRoles() {
  return organizationState.current?.role === 'owner' ? ROLES : ROLES.filter((r) => r !== 'owner');
}

function renderMembers(members) {
  const body = byId('member-rows');
  body.replaceChildren(...members.map(memberRow));
}

function memberRow(member) {
  const actions = el('td', { class: 'actions' });
  const me = member.user_id === organizationState.me;
  const row = el(
    'tr',
    {},
    el('th', { scope: 'row' }, member.email, me ? ' (you)' : ''),
    el('td', {}, member.role),
    el('td', {}, when(member.created_at)),
    actions,
  );
  showMemberActions(actions, member, me);
  return row;
}

function showMemberActions(cell, member, me) {
  const current = organizationState.current;
  const parts = [];
  const mayChange = managesMembers() && !me && (current.role === 'owner' || member.role !== 'owner');
  if (mayChange) {
    const id = `role-${member.user_id}`;
    const select = el(
      'select',
      { id },
      ...assignableRoles().map((role) => el('option', { value: role, selected: role === member.role }, role)),
    );
    parts.push(
      el('label', { for: id }, `Role of ${member.email}`),
      select,
      el(
        'button',
        { type: 'button', onclick: () => changeRole(member, select.value) },
        `Change role of ${member.email}`,
      ),
      el(
        'button',
        { type: 'button', class: 'danger', onclick: () => confirmRemoval(cell, member, false) },
        `Remove ${member.email}`,
      ),
    );
  }
  if (me && !current.personal)
    parts.push(
      el(
        'button',
        { type: 'button', class: 'danger', onclick: () => confirmRemoval(cell, member, true) },
        'Leave organization',
      ),
    );
  cell.replaceChildren(...parts);
}

function confirmRemoval(cell, member, leaving) {
  const cancel = el('button', { type: 'button', onclick: () => showMemberActions(cell, member, leaving) }, 'Cancel');
  const question = leaving
    ? `Leave ${organizationState.current.name}? Your keys of it are revoked at once.`
    : `Remove ${member.email}? Their keys of this organization are revoked at once.`;
  cell.replaceChildren(
    el(
      'span',
      { role: 'group', 'aria-label': leaving ? 'Confirm leaving' : `Confirm removal of ${member.email}` },
      el('span', {}, `${question} `),
      el(
        'button',
        { type: 'button', class: 'danger', onclick: () => removeMember(member, leaving) },
        leaving ? 'Yes, leave' : 'Yes, remove',
      ),
      cancel,
    ),
  );
  cancel.focus();
}

async function changeRole(member, role) {
  await guarded(async () => {
    const org = organizationState.current;
    await api('PUT', `/organizations/${encodeURIComponent(org.id)}/members/${encodeURIComponent(member.user_id)}`, {
      role,
    });
    announce(`${member.email} is ${role === 'admin' ? 'an' : 'a'} ${role} now.`);
    await loadMembers();
  });
}

async function removeMember(member, leaving) {
  await guarded(async () => {
    const org = organizationState.current;
    await api('DELETE', `/organizations/${encodeURIComponent(org.id)}/members/${encodeURIComponent(member.user_id)}`);
    if (leaving) {
      organizationStore.clear();
      await loadAccount();
      announce(`You left ${org.name}.`);
      return;
    }
    announce(`${member.email} was removed.`);
    await loadMembers();
  });
}
