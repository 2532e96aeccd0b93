// The audit log of the chosen organization, newest first, for owners and admins signed in with the account token:
// who (which credential) did what to which target. "Older entries" pages back; secrets never appear in it.
const auditState = { cursor: null };

function auditRow(entry) {
  return el(
    'tr',
    {},
    el('th', { scope: 'row' }, when(entry.created_at)),
    el('td', {}, el('code', {}, entry.action)),
    el('td', {}, `${entry.target.type} `, el('code', {}, entry.target.id)),
    el('td', {}, `${entry.actor.kind} `, el('code', {}, entry.actor.id)),
  );
}

async function loadAudit(older = false) {
  const org = organizationState.current;
  const visible = org !== null && org.role !== 'member' && isAccountToken();
  byId('audit').hidden = !visible;
  if (!visible) return;
  const cursor = older && auditState.cursor ? `&cursor=${encodeURIComponent(auditState.cursor)}` : '';
  const page = await api('GET', `/organizations/${encodeURIComponent(org.id)}/audit-log?limit=25${cursor}`);
  const rows = page.data.map(auditRow);
  if (older) byId('audit-rows').append(...rows);
  else byId('audit-rows').replaceChildren(...rows);
  auditState.cursor = page.next_cursor;
  byId('audit-older').hidden = page.next_cursor === null;
  byId('audit-empty').hidden = byId('audit-rows').childElementCount > 0;
}

function startAudit() {
  byId('audit-older').addEventListener('click', () => guarded(() => loadAudit(true)));
}
