// Budgets of the chosen organization: its own and the signed-in member's, each with the current period's spend and
// what is left. The owner (with the account token) sets or removes the organization's budget; members' budgets are
// set by owners and admins through the API or `npx modelgate orgs budget`. A budget refuses requests (402) once spent.
const BUDGET_RESETS = ['never', 'daily', 'weekly', 'monthly'];

function budgetText(budget) {
  if (budget.limit_usd === null) return 'No budget';
  const resets = budget.resets_at ? `, starts over ${when(budget.resets_at)}` : '';
  return `${usd(budget.spent_usd)} of ${usd(budget.limit_usd)} spent (${budget.reset}), ${usd(budget.remaining_usd)} left${resets}`;
}

function budgetRow(label, budget) {
  return el('div', {}, el('dt', {}, label), el('dd', {}, budgetText(budget)));
}

async function loadBudgets() {
  const org = organizationState.current;
  if (!org) return;
  const base = `/organizations/${encodeURIComponent(org.id)}`;
  const rows = [budgetRow('Organization', await api('GET', `${base}/budget`))];
  if (organizationState.me)
    rows.push(budgetRow('You', await api('GET', `${base}/members/${encodeURIComponent(organizationState.me)}/budget`)));
  byId('budget-list').replaceChildren(...rows);
  const owner = org.role === 'owner' && isAccountToken();
  byId('org-budget-form').hidden = !owner;
  if (owner && byId('budget-reset').childElementCount === 0)
    byId('budget-reset').replaceChildren(
      ...BUDGET_RESETS.map((reset) => el('option', { value: reset, selected: reset === 'monthly' }, reset)),
    );
}

async function saveBudget(event) {
  event.preventDefault();
  const text = byId('budget-limit').value.trim();
  const limit = Number(text);
  if (text === '' || !Number.isFinite(limit) || limit < 0) {
    showError('Give the budget as a number of US dollars, 0 or more.');
    byId('budget-limit').focus();
    return;
  }
  await changeBudget({ limit_usd: limit, reset: byId('budget-reset').value }, 'Budget saved.');
}

async function changeBudget(body, message) {
  await guarded(async () => {
    const org = organizationState.current;
    await api('PUT', `/organizations/${encodeURIComponent(org.id)}/budget`, body);
    byId('budget-limit').value = '';
    announce(message);
    await loadBudgets();
  });
}

function startBudgets() {
  byId('org-budget-form').addEventListener('submit', saveBudget);
  byId('remove-budget').addEventListener('click', () =>
    changeBudget({ limit_usd: null }, 'Budget removed: the organization spends without a limit.'),
  );
}
