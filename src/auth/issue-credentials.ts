// Creating credentials: the secret is generated here, returned to the caller once and only its hash is stored.
import type { DbOrTrx } from '../db/database.js';
import type { ApiKeyKind } from '../db/tables/api-keys.js';
import { insertApiKey } from '../repositories/api-keys.js';
import { insertAccountToken } from '../repositories/account-tokens.js';
import { newId, newSecret } from './secrets.js';

/**
 * A key of `organizationId` owned by its member `memberUserId`; an inference key unless `kind` says otherwise (a
 * management key gets the `mgm-v1-` prefix). Who may make a key for whom is the caller's check (auth/key-scopes.ts).
 */
export async function issueApiKey(
  db: DbOrTrx,
  input: { organizationId: string; memberUserId: string; name: string; kind?: ApiKeyKind },
) {
  const kind = input.kind ?? 'inference';
  const { secret, hash, displayPrefix } = newSecret(kind === 'management' ? 'management_key' : 'api_key');
  const row = await insertApiKey(db, {
    id: newId('key_'),
    user_id: input.organizationId,
    member_user_id: input.memberUserId,
    name: input.name,
    key_hash: hash,
    display_prefix: displayPrefix,
    kind,
  });
  return { row, secret };
}

export async function issueAccountToken(db: DbOrTrx, input: { userId: string }) {
  const { secret, hash, displayPrefix } = newSecret('account_token');
  const row = await insertAccountToken(db, {
    id: newId('tok_'),
    user_id: input.userId,
    token_hash: hash,
    display_prefix: displayPrefix,
  });
  return { row, secret };
}
