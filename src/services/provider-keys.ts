// An organization's own provider keys (bring your own key), shared by the member API and the CLI: set, list masked,
// delete. Owners and admins (and the operator) write; every member reads the masked list. Keys are sealed under the
// master key (auth/secret-box.ts) and never leave in clear: not in an answer, the audit log or an error message.
import { requireManager, type OrganizationActor } from '../auth/member-roles.js';
import { sealSecret, type MasterKey } from '../auth/secret-box.js';
import { GatewayError } from '../core/gateway-error.js';
import type { Db, DbOrTrx } from '../db/database.js';
import type { ProviderKeyMode, ProviderKeyRow } from '../db/tables/provider-keys.js';
import { inTransaction } from '../db/in-transaction.js';
import {
  deleteProviderKey as deleteRow,
  findProviderKey,
  listProviderKeys,
  upsertProviderKey,
} from '../repositories/provider-keys.js';
import { recordAudit, type AuditActor } from './audit-log.js';
import { requireOrganization } from './organizations.js';

/** The row handlers and the CLI render. */
export type { ProviderKeyRow } from '../db/tables/provider-keys.js';

export const PROVIDER_KEY_MODES: readonly ProviderKeyMode[] = ['prefer', 'only', 'fallback'];

/** Real provider keys are long; a shorter value is a typo, and its hint would show too much of it. */
const MIN_KEY_LENGTH = 16;
const MAX_KEY_LENGTH = 1024;

/** `sk-…a1b2`: the key's leading word (a vendor prefix such as `sk-`), an ellipsis and its last four characters. */
export function keyHint(key: string): string {
  const prefix = /^[A-Za-z]{1,8}[-_]/.exec(key)?.[0] ?? '';
  return `${prefix}…${key.slice(-4)}`;
}

/** What the caller may write: the keys of which providers the catalog names. */
export interface ProviderKeyInput {
  organizationId: string;
  provider: string;
  key: unknown;
  mode: unknown;
  /** The catalog's provider ids. */
  knownProviders: readonly string[];
  masterKey: MasterKey | undefined;
  by: AuditActor;
}

function checkProvider(provider: string, known: readonly string[]): void {
  if (!known.includes(provider))
    throw new GatewayError(404, `Unknown provider "${provider}"; the catalog's providers are ${known.join(', ')}`, {
      reason: 'provider_not_found',
      provider,
    });
}

function checkKey(key: unknown): string {
  // The value is never echoed: only what is wrong with it.
  if (typeof key !== 'string' || key.length < MIN_KEY_LENGTH || key.length > MAX_KEY_LENGTH)
    throw new GatewayError(
      400,
      `Invalid request: key must be the provider's API key, ${MIN_KEY_LENGTH} to ${MAX_KEY_LENGTH} characters`,
      { field: 'key' },
    );
  if (!/^[\x21-\x7e]+$/.test(key))
    throw new GatewayError(400, 'Invalid request: key may hold visible ASCII characters only (no spaces)', {
      field: 'key',
    });
  return key;
}

function checkMode(mode: unknown): ProviderKeyMode {
  if (mode === undefined) return 'prefer';
  if (typeof mode === 'string' && (PROVIDER_KEY_MODES as readonly string[]).includes(mode))
    return mode as ProviderKeyMode;
  throw new GatewayError(400, `Invalid request: mode must be one of ${PROVIDER_KEY_MODES.join(', ')}`, {
    field: 'mode',
  });
}

/** Sets (makes or replaces) the organization's key for a provider; audited as `provider_key.set`, without the key. */
export async function setProviderKey(
  db: Db,
  actor: OrganizationActor,
  input: ProviderKeyInput,
): Promise<ProviderKeyRow> {
  requireManager(actor, "Setting the organization's provider keys");
  checkProvider(input.provider, input.knownProviders);
  const key = checkKey(input.key);
  const mode = checkMode(input.mode);
  if (input.masterKey === undefined)
    throw new GatewayError(
      503,
      'This gateway cannot store provider keys: the operator has not set MODELGATE_ENCRYPTION_KEY, the master key they are encrypted with',
      { reason: 'encryption_not_configured' },
    );
  const ciphertext = sealSecret(key, input.masterKey);
  return inTransaction(db, async (trx) => {
    await requireOrganization(trx, input.organizationId);
    const before = await findProviderKey(trx, input.organizationId, input.provider);
    const row = await upsertProviderKey(trx, {
      organizationId: input.organizationId,
      provider: input.provider,
      ciphertext,
      hint: keyHint(key),
      mode,
    });
    await recordAudit(trx, {
      actor: input.by,
      organizationId: input.organizationId,
      action: 'provider_key.set',
      target: { type: 'provider_key', id: input.provider },
      before: before ? audited(before) : null,
      after: audited(row),
    });
    return row;
  });
}

/** The organization's keys as every member may see them (masked). */
export async function providerKeysOf(db: DbOrTrx, organizationId: string): Promise<ProviderKeyRow[]> {
  await requireOrganization(db, organizationId);
  return listProviderKeys(db, organizationId);
}

/** Deletes the organization's key for a provider: 404 when it has none; audited as `provider_key.deleted`. */
export async function deleteProviderKey(
  db: Db,
  actor: OrganizationActor,
  input: { organizationId: string; provider: string; knownProviders: readonly string[]; by: AuditActor },
): Promise<void> {
  requireManager(actor, "Deleting the organization's provider keys");
  checkProvider(input.provider, input.knownProviders);
  await inTransaction(db, async (trx) => {
    const row = await deleteRow(trx, input.organizationId, input.provider);
    if (!row)
      throw new GatewayError(404, `The organization has no key of its own for ${input.provider}`, {
        reason: 'provider_key_not_found',
        provider: input.provider,
      });
    await recordAudit(trx, {
      actor: input.by,
      organizationId: input.organizationId,
      action: 'provider_key.deleted',
      target: { type: 'provider_key', id: input.provider },
      before: audited(row),
      after: null,
    });
  });
}

/** What the audit log keeps of a key: its hint and mode, never the key or its ciphertext. */
function audited(row: ProviderKeyRow): Record<string, unknown> {
  return { provider: row.provider, key_hint: row.key_hint, mode: row.mode };
}
