// The page's only way to the API: same-origin fetch with the credential as Bearer, every failure turned into a
// sentence a person can act on (the page never goes blank on an error).
const CREDENTIAL_KEY = 'modelgate.credential';

// sessionStorage only: the credential dies with the tab and never reaches a URL, a cookie or a log line.
const credentialStore = {
  get: () => sessionStorage.getItem(CREDENTIAL_KEY),
  set: (value) => sessionStorage.setItem(CREDENTIAL_KEY, value),
  clear: () => sessionStorage.removeItem(CREDENTIAL_KEY),
};

// The organization the page shows (its id), chosen in the switcher; kept with the credential and gone with it.
const ORGANIZATION_KEY = 'modelgate.organization';
const organizationStore = {
  get: () => sessionStorage.getItem(ORGANIZATION_KEY),
  set: (value) => sessionStorage.setItem(ORGANIZATION_KEY, value),
  clear: () => sessionStorage.removeItem(ORGANIZATION_KEY),
};

class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

function explainFailure(status, body) {
  const detail = body?.error && typeof body.error.message === 'string' ? body.error.message : '';
  if (status === 401)
    return 'Your token or key was refused: it is invalid, deleted, disabled or expired. Sign in again with a valid one.';
  if (status === 402) return 'Payment required: this account has no credits left for this. Add credits and try again.';
  if (status === 403) return `Not allowed: ${detail || 'this credential may not do that.'}`;
  if (status === 404) return `Not found: ${detail || 'the item no longer exists.'}`;
  if (status === 429) return 'Too many requests: wait a moment and try again.';
  if (status >= 500) return `The gateway had a problem (${status}). Try again shortly.${detail ? ` (${detail})` : ''}`;
  return detail || `The request failed with status ${status}.`;
}

/** `options.organization: false` leaves out the chosen organization (listing or creating organizations). */
async function api(method, path, body, options = {}) {
  const credential = credentialStore.get();
  const headers = { accept: 'application/json' };
  if (credential) headers.authorization = `Bearer ${credential}`;
  const organization = options.organization === false ? null : organizationStore.get();
  if (organization) headers['x-modelgate-organization'] = organization;
  if (body !== undefined) headers['content-type'] = 'application/json';
  let res;
  try {
    res = await fetch(`/api/v1${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: 'no-store',
    });
  } catch {
    throw new ApiError(
      0,
      'Cannot reach the gateway: the network is down or the server stopped. Check the connection and reload.',
    );
  }
  let parsed;
  try {
    parsed = await res.json();
  } catch {
    parsed = undefined;
  }
  if (!res.ok) throw new ApiError(res.status, explainFailure(res.status, parsed));
  return parsed;
}
