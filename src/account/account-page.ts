// The account page's HTML shell. Everything dynamic is filled in by the script (with textContent); the shell holds
// no inline script or style, so the page runs under a CSP without 'unsafe-inline'.

export interface AccountPageOptions {
  /** Fingerprinted URL of the script bundle. */
  scriptUrl: string;
  /** Fingerprinted URL of the stylesheet. */
  styleUrl: string;
}

export function renderAccountPage({ scriptUrl, styleUrl }: AccountPageOptions): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Modelgate account</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${styleUrl}">
<script src="${scriptUrl}" defer></script>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header>
  <h1>Modelgate account</h1>
  <nav aria-label="Gateway"><a href="/docs">API reference</a></nav>
  <button type="button" id="sign-out" hidden>Sign out</button>
</header>
<main id="main">
  <div id="status" role="status" aria-live="polite" class="hint"></div>
  <div id="error" role="alert" hidden></div>
  <noscript><p>This page needs JavaScript. The same data is available from the API: see <a href="/docs">/docs</a>.</p></noscript>

  <section id="sign-in" aria-labelledby="sign-in-title">
    <h2 id="sign-in-title">Sign in</h2>
    <form id="sign-in-form">
      <label for="credential">Account token or API key</label>
      <input id="credential" name="credential" type="password" autocomplete="off" spellcheck="false" aria-describedby="credential-help" size="48">
      <p id="credential-help" class="hint">Create a token with <code>npx modelgate tokens create --email you@example.com</code>. It is kept in this tab only (session storage) and removed when you sign out or close the tab. Creating, changing and deleting keys takes the account token or a management key; an API key shows the account and can only revoke itself.</p>
      <button type="submit">Sign in</button>
    </form>
  </section>

  <div id="account" hidden>
    <h2 id="account-title" tabindex="-1" class="hint">Your account <button type="button" id="reload">Reload</button></h2>

    <section id="organization" aria-labelledby="organization-title">
      <h2 id="organization-title">Organization</h2>
      <div class="inline-form">
        <div><label for="org-switcher">Show organization</label><select id="org-switcher" aria-describedby="org-role"></select></div>
      </div>
      <p id="org-role" class="hint"></p>
      <form id="create-org-form" class="inline-form" hidden>
        <div><label for="org-name">New organization name</label><input id="org-name" name="name" maxlength="200" placeholder="e.g. Acme"></div>
        <button type="submit">Create organization</button>
      </form>
      <form id="accept-invitation-form" class="inline-form" hidden>
        <div><label for="invitation-token">Invitation token</label><input id="invitation-token" name="token" autocomplete="off" spellcheck="false" placeholder="mgi-v1-..."></div>
        <button type="submit">Accept invitation</button>
      </form>
    </section>

    <section id="members" aria-labelledby="members-title">
      <h2 id="members-title">Members</h2>
      <div class="table-wrap" tabindex="0" role="region" aria-labelledby="members-title">
        <table id="members-table">
          <thead><tr><th scope="col">E-mail</th><th scope="col">Role</th><th scope="col">Member since</th><th scope="col">Actions</th></tr></thead>
          <tbody id="member-rows"></tbody>
        </table>
      </div>
      <div id="invitations" hidden>
        <h3 id="invitations-title">Invitations</h3>
        <form id="create-invitation-form" class="inline-form">
          <div><label for="invitation-role">Role of the invited member</label><select id="invitation-role"></select></div>
          <button type="submit">Create invitation</button>
        </form>
        <div id="new-invitation" class="new-key" role="region" aria-labelledby="new-invitation-title" hidden>
          <h4 id="new-invitation-title">New invitation (<span id="new-invitation-role"></span>)</h4>
          <p><strong>Send the link or the token now: it is shown only this once.</strong> It can be accepted once, within 7 days, by a signed-in user.</p>
          <label for="new-invitation-link">New invitation link</label>
          <input id="new-invitation-link" readonly spellcheck="false">
          <label for="new-invitation-token">New invitation token</label>
          <input id="new-invitation-token" readonly spellcheck="false">
          <button type="button" id="dismiss-invitation">I sent it, hide it</button>
        </div>
        <p id="invitations-empty" class="hint" hidden>No pending invitations.</p>
        <div class="table-wrap" tabindex="0" role="region" aria-labelledby="invitations-title">
          <table id="invitations-table">
            <thead><tr><th scope="col">Invitation</th><th scope="col">Role</th><th scope="col">Created</th><th scope="col">Expires</th><th scope="col">Actions</th></tr></thead>
            <tbody id="invitation-rows"></tbody>
          </table>
        </div>
      </div>
    </section>

    <section id="aliases" aria-labelledby="aliases-title">
      <h2 id="aliases-title" tabindex="-1">Model aliases</h2>
      <p class="hint">Names the organization gives catalog models: send the name as <code>model</code> on any API.</p>
      <form id="create-alias-form" class="inline-form" hidden>
        <div><label for="alias-name">Alias name</label><input id="alias-name" maxlength="64" placeholder="e.g. coder" spellcheck="false"></div>
        <div><label for="alias-model">Catalog model</label><input id="alias-model" list="alias-models" maxlength="256" spellcheck="false"></div>
        <datalist id="alias-models"></datalist>
        <div><label for="alias-description">Description</label><input id="alias-description" maxlength="500"></div>
        <button type="submit">Save alias</button>
      </form>
      <p id="aliases-empty" class="hint" hidden>No aliases.</p>
      <div class="table-wrap" tabindex="0" role="region" aria-label="Model aliases table">
        <table id="aliases-table">
          <thead><tr><th scope="col">Alias</th><th scope="col">Model</th><th scope="col">Description</th><th scope="col">Changed</th><th scope="col">Actions</th></tr></thead>
          <tbody id="alias-rows"></tbody>
        </table>
      </div>
    </section>

    <section id="presets" aria-labelledby="presets-title">
      <h2 id="presets-title" tabindex="-1">Presets</h2>
      <p class="hint">Saved request settings: send <code>@preset/&lt;slug&gt;</code> as <code>model</code> (or <code>@preset/&lt;slug&gt;@&lt;version&gt;</code> to pin one). Saving a slug again makes its next version.</p>
      <form id="create-preset-form" class="inline-form" hidden>
        <div><label for="preset-slug">Preset slug</label><input id="preset-slug" maxlength="64" placeholder="e.g. coder" spellcheck="false"></div>
        <div><label for="preset-model">Preset model</label><input id="preset-model" list="preset-models" maxlength="256" spellcheck="false"></div>
        <datalist id="preset-models"></datalist>
        <div><label for="preset-system">System prompt</label><textarea id="preset-system" rows="2" maxlength="30000"></textarea></div>
        <div><label for="preset-temperature">Temperature</label><input id="preset-temperature" type="number" min="0" max="2" step="0.1"></div>
        <div><label for="preset-max-tokens">Max tokens</label><input id="preset-max-tokens" type="number" min="1" step="1"></div>
        <div><label for="preset-description">Purpose</label><input id="preset-description" maxlength="500"></div>
        <button type="submit">Save preset</button>
      </form>
      <p id="presets-empty" class="hint" hidden>No presets.</p>
      <div class="table-wrap" tabindex="0" role="region" aria-label="Presets table">
        <table id="presets-table">
          <thead><tr><th scope="col">Model name</th><th scope="col">Version</th><th scope="col">Serves</th><th scope="col">Description</th><th scope="col">Saved</th><th scope="col">Actions</th></tr></thead>
          <tbody id="preset-rows"></tbody>
        </table>
      </div>
    </section>

    <section id="keys" aria-labelledby="keys-title">
      <h2 id="keys-title">API keys</h2>
      <p id="keys-scope" class="hint" hidden></p>
      <form id="create-key-form" class="inline-form" hidden>
        <div><label for="key-name">New key name</label><input id="key-name" name="name" maxlength="100" placeholder="e.g. CI"></div>
        <div id="key-member-field" hidden><label for="key-member">For member</label><select id="key-member"></select></div>
        <div id="key-manage-field" hidden><label><input type="checkbox" id="key-manage" name="manage"> Management key (manages keys, calls no model)</label></div>
        <button type="submit">Create key</button>
      </form>
      <div id="new-key" class="new-key" role="region" aria-labelledby="new-key-title" hidden>
        <h3 id="new-key-title">New key "<span id="new-key-name"></span>"</h3>
        <p><strong>Copy it now: it is shown only this once</strong> and cannot be shown again. Treat it like a password.</p>
        <label for="new-key-value">Key value</label>
        <input id="new-key-value" readonly spellcheck="false">
        <button type="button" id="copy-key">Copy key</button>
        <button type="button" id="dismiss-key">I stored it, hide it</button>
      </div>
      <p id="keys-empty" class="hint" hidden>No active keys.</p>
      <div class="table-wrap" tabindex="0" role="region" aria-labelledby="keys-title">
        <table id="keys-table">
          <thead><tr><th scope="col">Name</th><th scope="col">Prefix</th><th scope="col" id="keys-col-kind">Kind</th><th scope="col" id="keys-col-member" hidden>Member</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col" id="keys-col-usage">Usage</th><th scope="col" id="keys-col-limit">Limit</th><th scope="col" id="keys-col-remaining">Remaining</th><th scope="col" id="keys-col-state">State</th><th scope="col">Actions</th></tr></thead>
          <tbody id="keys-rows"></tbody>
        </table>
      </div>
    </section>

    <section id="budgets" aria-labelledby="budgets-title">
      <h2 id="budgets-title">Budgets</h2>
      <dl id="budget-list" class="totals"></dl>
      <form id="org-budget-form" class="inline-form" hidden>
        <div><label for="budget-limit">Organization budget (USD)</label><input id="budget-limit" inputmode="decimal" placeholder="e.g. 500"></div>
        <div><label for="budget-reset">Starts over</label><select id="budget-reset"></select></div>
        <button type="submit">Save budget</button>
        <button type="button" id="remove-budget" class="danger">Remove budget</button>
      </form>
    </section>

    <section id="audit" aria-labelledby="audit-title" hidden>
      <h2 id="audit-title">Audit log</h2>
      <p id="audit-empty" class="hint" hidden>Nothing recorded yet.</p>
      <div class="table-wrap" tabindex="0" role="region" aria-label="Audit log entries">
        <table id="audit-table">
          <thead><tr><th scope="col">When</th><th scope="col">Action</th><th scope="col">Target</th><th scope="col">By</th></tr></thead>
          <tbody id="audit-rows"></tbody>
        </table>
      </div>
      <button type="button" id="audit-older" hidden>Older entries</button>
    </section>

    <section id="provider-keys" aria-labelledby="provider-keys-title">
      <h2 id="provider-keys-title">Provider keys</h2>
      <p class="hint">The organization's own keys for providers: its requests to a provider use its key as the mode says (prefer: first; only: never the gateway's keys; fallback: when the gateway's are down). Shown only masked.</p>
      <form id="provider-key-form" class="inline-form" hidden>
        <div><label for="provider-key-provider">Provider</label><input id="provider-key-provider" name="provider" autocomplete="off" spellcheck="false" placeholder="e.g. openai"></div>
        <div><label for="provider-key-value">Provider API key</label><input id="provider-key-value" name="key" type="password" autocomplete="off" spellcheck="false"></div>
        <div><label for="provider-key-mode">Provider key mode</label><select id="provider-key-mode"><option value="prefer" selected>prefer</option><option value="only">only</option><option value="fallback">fallback</option></select></div>
        <button type="submit">Save provider key</button>
      </form>
      <p id="provider-keys-empty" class="hint" hidden>No provider keys: requests use the gateway's keys.</p>
      <div class="table-wrap" tabindex="0" role="region" aria-labelledby="provider-keys-title">
        <table id="provider-keys-table">
          <thead><tr><th scope="col">Provider</th><th scope="col">Key</th><th scope="col">Mode</th><th scope="col">Updated</th><th scope="col">Actions</th></tr></thead>
          <tbody id="provider-key-rows"></tbody>
        </table>
      </div>
    </section>

    <section id="stored-responses" aria-labelledby="stored-responses-title">
      <h2 id="stored-responses-title">Stored responses</h2>
      <p class="hint">The Responses API keeps each response so a conversation can go on with <code>previous_response_id</code>. Deleting yours in this organization cannot be undone: conversations that continue them stop working. Other members' stay.</p>
      <button type="button" id="purge-responses" class="danger">Delete my stored responses</button>
      <div id="purge-responses-confirm" role="group" aria-label="Confirm deleting your stored responses" hidden>
        <span>Delete every response you stored in this organization? </span>
        <button type="button" id="purge-responses-yes" class="danger">Yes, delete my stored responses</button>
        <button type="button" id="purge-responses-cancel">Cancel</button>
      </div>
    </section>

    <section id="guardrails" aria-labelledby="guardrails-title">
      <h2 id="guardrails-title" tabindex="-1">Guardrails</h2>
      <p class="hint">Checks on what the organization's requests send and what answers say: redact a match with a placeholder, block the request, or only flag it. The matched text is never shown or kept.</p>
      <form id="guardrail-form" class="inline-form" hidden>
        <div><label for="guardrail-name">Guardrail name</label><input id="guardrail-name" maxlength="64" autocomplete="off" spellcheck="false" placeholder="e.g. no-emails"></div>
        <div><label for="guardrail-stage">Stage</label><select id="guardrail-stage"><option value="input" selected>input (request)</option><option value="output">output (answer)</option></select></div>
        <div><label for="guardrail-action">Action</label><select id="guardrail-action"><option value="redact" selected>redact</option><option value="block">block</option><option value="flag">flag</option></select></div>
        <div><label for="guardrail-detector">Detector</label><select id="guardrail-detector"><option value="email" selected>email</option><option value="phone">phone</option><option value="credit_card">credit_card</option><option value="iban">iban</option><option value="secret">secret</option><option value="regex">regex (operator pattern)</option></select></div>
        <div><label for="guardrail-pattern">Operator pattern</label><input id="guardrail-pattern" maxlength="64" autocomplete="off" spellcheck="false" placeholder="regex only"></div>
        <button type="submit">Add guardrail</button>
      </form>
      <p id="guardrails-empty" class="hint" hidden>No guardrails.</p>
      <div class="table-wrap" tabindex="0" role="region" aria-labelledby="guardrails-title">
        <table id="guardrails-table">
          <thead><tr><th scope="col">Name</th><th scope="col">Stage</th><th scope="col">Action</th><th scope="col">Detector</th><th scope="col">Actions</th></tr></thead>
          <tbody id="guardrail-rows"></tbody>
        </table>
      </div>
    </section>

    <section id="credits" aria-labelledby="credits-title">
      <h2 id="credits-title">Credits</h2>
      <dl class="totals">
        <div><dt>Balance</dt><dd id="balance">—</dd></div>
        <div><dt>Total granted</dt><dd id="total-credits">—</dd></div>
        <div><dt>Total used</dt><dd id="total-used">—</dd></div>
      </dl>
      <h3 id="generations-title">Last 50 generations</h3>
      <p id="generations-empty" class="hint" hidden>No requests yet.</p>
      <div class="table-wrap tall" tabindex="0" role="region" aria-labelledby="generations-title">
        <table id="generations-table">
          <thead><tr><th scope="col">Time</th><th scope="col">Model (open record)</th><th scope="col">Provider</th><th scope="col">Tokens in + out</th><th scope="col">Cost</th><th scope="col">Status</th></tr></thead>
          <tbody id="generation-rows"></tbody>
        </table>
      </div>
      <div id="generation-detail" role="region" aria-labelledby="generation-detail-title" hidden></div>
    </section>

    <section id="usage" aria-labelledby="usage-title">
      <h2 id="usage-title">Usage, last 30 days</h2>
      <p id="usage-empty" class="hint" hidden>No usage in the last 30 days.</p>
      <p id="cache-savings" hidden>Saved by the response cache: <strong id="cache-saved">—</strong> (<span id="cache-hits">0</span> answers served from the cache, not counted as requests below).</p>
      <div id="usage-body">
        <div id="usage-charts" class="charts"></div>
        <h3 id="legend-title">Models</h3>
        <ul id="usage-legend" class="legend" aria-labelledby="legend-title"></ul>
        <details>
          <summary>Usage as a table</summary>
          <div class="table-wrap" tabindex="0" role="region" aria-label="Usage per day and model">
            <table>
              <thead><tr><th scope="col">Day (UTC)</th><th scope="col">Model</th><th scope="col">Requests</th><th scope="col">Tokens in + out</th><th scope="col">Cost</th></tr></thead>
              <tbody id="usage-rows"></tbody>
            </table>
          </div>
        </details>
      </div>
    </section>

    <section id="pass" aria-labelledby="pass-title" hidden>
      <h2 id="pass-title">Pass subscription</h2>
      <p id="pass-period" class="hint"></p>
      <div id="pass-meters"></div>
    </section>

  </div>
</main>
</body>
</html>
`;
}
