// The keys of one member in one organization, as a subquery: how usage is narrowed to what a member may read (its
// own keys'), revoked keys included so that their past usage stays the member's.
import type { DbOrTrx } from '../db/database.js';

export function keysOfMember(db: DbOrTrx, organizationId: string, memberUserId: string) {
  return db
    .selectFrom('api_keys')
    .select('api_keys.id')
    .where('api_keys.user_id', '=', organizationId)
    .where('api_keys.member_user_id', '=', memberUserId);
}
