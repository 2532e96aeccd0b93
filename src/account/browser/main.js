// Wiring: sign in (the credential is checked with GET /credits before it is kept), load every section, sign out.
async function guarded(task) {
  showError('');
  try {
    await task();
  } catch (error) {
    showError(error instanceof Error ? error.message : String(error));
    if (error instanceof ApiError && error.status === 401) signOut(false);
  }
}

async function loadAccount() {
  // The organization first: every section below reads the one it names. Members before keys, which show their e-mail.
  await loadOrganizations();
  // Sections load independently: one failing section shows its error without blanking the others.
  const members = await Promise.allSettled([loadMembers()]);
  const results = await Promise.allSettled([
    loadCredits(),
    loadGenerations(),
    loadUsage(),
    loadPass(),
    loadKeys(),
    loadAliases(),
    loadPresets(),
    loadBudgets(),
    loadAudit(),
    loadProviderKeys(),
    loadStoredResponses(),
    loadGuardrails(),
  ]);
  results.unshift(...members);
  const failure = results.find((r) => r.status === 'rejected');
  if (failure) {
    showError(failure.reason instanceof Error ? failure.reason.message : String(failure.reason));
    if (failure.reason instanceof ApiError && failure.reason.status === 401) signOut(false);
  }
}

function showSignedIn(signedIn) {
  byId('sign-in').hidden = signedIn;
  byId('account').hidden = !signedIn;
  byId('sign-out').hidden = !signedIn;
}

async function signIn(event) {
  event.preventDefault();
  const input = byId('credential');
  const value = input.value.trim();
  if (!value) {
    showError('Paste an account token or an API key first.');
    input.focus();
    return;
  }
  credentialStore.set(value);
  input.value = '';
  await guarded(async () => {
    await api('GET', '/credits');
    showSignedIn(true);
    announce('Signed in.');
    await loadAccount();
    byId('account-title').focus();
  });
}

function signOut(userAction) {
  credentialStore.clear();
  organizationStore.clear();
  for (const id of ['new-invitation-link', 'new-invitation-token']) byId(id).value = '';
  byId('new-invitation').hidden = true;
  byId('invitations').hidden = true;
  byId('new-key-value').value = '';
  byId('provider-key-value').value = '';
  byId('provider-key-form').hidden = true;
  byId('guardrail-form').hidden = true;
  byId('new-key').hidden = true;
  byId('generation-detail').hidden = true;
  // Leave nothing of the account in the page for whoever uses the tab next.
  for (const id of [
    'keys-rows',
    'generation-rows',
    'usage-rows',
    'usage-charts',
    'usage-legend',
    'pass-meters',
    'generation-detail',
    'member-rows',
    'invitation-rows',
    'org-switcher',
    'alias-rows',
    'alias-models',
    'preset-rows',
    'preset-models',
    'budget-list',
    'audit-rows',
    'provider-key-rows',
    'guardrail-rows',
  ]) {
    byId(id).replaceChildren();
  }
  for (const id of ['balance', 'total-credits', 'total-used']) byId(id).textContent = '—';
  byId('pass').hidden = true;
  byId('audit').hidden = true;
  byId('cache-savings').hidden = true;
  showSignedIn(false);
  if (userAction) {
    showError('');
    announce('Signed out. The credential was removed from this tab.');
  }
  byId('credential').focus();
}

function start() {
  byId('sign-in-form').addEventListener('submit', signIn);
  byId('sign-out').addEventListener('click', () => signOut(true));
  byId('create-key-form').addEventListener('submit', createKey);
  byId('copy-key').addEventListener('click', copyNewKey);
  byId('dismiss-key').addEventListener('click', dismissNewKey);
  byId('reload').addEventListener('click', () => guarded(loadAccount));
  startOrganizations();
  startInvitations();
  startAliases();
  startPresets();
  startBudgets();
  startAudit();
  startProviderKeys();
  startStoredResponses();
  startGuardrails();
  if (credentialStore.get()) {
    showSignedIn(true);
    guarded(loadAccount);
  } else {
    showSignedIn(false);
  }
}

start();
