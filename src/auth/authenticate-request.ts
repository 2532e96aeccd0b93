// A request's principal from what it presented: its secret resolved (from the credential cache when there is one),
// checked against the route, then placed in the organization the request names. http/ reads the headers; this holds
// the database and caches, so the HTTP layer needs neither.
import type { Principal } from './principal.js';
import { authenticateCredential, type CredentialSources } from './authenticate-credential.js';
import { authorizeRoute } from './authorize-route.js';
import { principalInOrganization } from './organization-choice.js';

/** What a request presented: its secret, the route it asks for and the organization it names (empty: none). */
export interface PresentedCredential {
  secret: string;
  path: string;
  operationId?: string;
  organization: string;
}

export type RequestAuthority = (presented: PresentedCredential) => Promise<Principal>;

export function requestAuthority(sources: CredentialSources & { now: () => Date }): RequestAuthority {
  return async ({ secret, path, operationId, organization }) => {
    const authenticated = await authenticateCredential(sources, secret);
    // Checked on every request, from the cache too: expiry needs no change to the row, and a disabled key's
    // cached principal is dropped by the change notification.
    authorizeRoute(authenticated, path, sources.now(), operationId);
    // Only when the header is sent: a request without it costs no membership lookup.
    return principalInOrganization(sources.db, authenticated, organization);
  };
}
