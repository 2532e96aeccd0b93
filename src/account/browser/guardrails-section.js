// The chosen organization's guardrails: every member sees them; owners and admins (signed in with the account token)
// add one or remove one. The page sends the whole list back (PUT /guardrails replaces it); the gateway checks it
// (400 with the reason otherwise, e.g. a pattern the operator has not defined).
let guardrailList = [];

function managesGuardrails() {
  const current = organizationState.current;
  return current !== null && current.role !== 'member' && isAccountToken();
}

async function loadGuardrails() {
  if (!organizationState.current) return;
  const { data } = await api('GET', '/guardrails');
  guardrailList = data;
  const manages = managesGuardrails();
  byId('guardrail-form').hidden = !manages;
  byId('guardrail-rows').replaceChildren(...data.map((guardrail) => guardrailRow(guardrail, manages)));
  byId('guardrails-empty').hidden = data.length > 0;
  byId('guardrails-table').hidden = data.length === 0;
}

function guardrailRow(guardrail, manages) {
  const detector = guardrail.pattern ? `regex: ${guardrail.pattern}` : guardrail.detector;
  return el(
    'tr',
    {},
    el('th', { scope: 'row' }, el('code', {}, guardrail.name)),
    el('td', {}, guardrail.stage),
    el('td', {}, guardrail.action),
    el('td', {}, detector),
    el(
      'td',
      { class: 'actions' },
      manages
        ? el(
            'button',
            { type: 'button', class: 'danger', onclick: () => removeGuardrail(guardrail.name) },
            `Remove guardrail ${guardrail.name}`,
          )
        : null,
    ),
  );
}

async function saveGuardrails(list, message) {
  const { data } = await api('PUT', '/guardrails', { data: list });
  announce(message);
  guardrailList = data;
  await loadGuardrails();
}

async function addGuardrail(event) {
  event.preventDefault();
  const name = byId('guardrail-name').value.trim();
  if (!name) {
    showError('Give the guardrail a name.');
    byId('guardrail-name').focus();
    return;
  }
  const guardrail = {
    name,
    stage: byId('guardrail-stage').value,
    action: byId('guardrail-action').value,
    detector: byId('guardrail-detector').value,
  };
  const pattern = byId('guardrail-pattern').value.trim();
  if (guardrail.detector === 'regex') guardrail.pattern = pattern;
  await guarded(async () => {
    const others = guardrailList.filter((g) => g.name !== name);
    await saveGuardrails([...others, guardrail], `Guardrail ${name} saved: the next request uses it.`);
    for (const id of ['guardrail-name', 'guardrail-pattern']) byId(id).value = '';
    byId('guardrail-name').focus();
  });
}

async function removeGuardrail(name) {
  await guarded(async () => {
    const rest = guardrailList.filter((g) => g.name !== name);
    await saveGuardrails(rest, `Guardrail ${name} removed.`);
    byId('guardrails-title').focus();
  });
}

function startGuardrails() {
  byId('guardrail-form').addEventListener('submit', addGuardrail);
}
