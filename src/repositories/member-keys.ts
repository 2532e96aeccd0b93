// What one member made in one organization: its keys (revoked ones included, so that their past usage stays the
// member's), and the records and totals made with them or with the member's account token. How usage is narrowed to
// what a member may read.
import { sql, type RawBuilder } from 'kysely';
import type { DbOrTrx } from '../db/database.js';

export function keysOfMember(db: DbOrTrx, organizationId: string, memberUserId: string) {
  return db
    .selectFrom('api_keys')
    .select('api_keys.id')
    .where('api_keys.user_id', '=', organizationId)
    .where('api_keys.member_user_id', '=', memberUserId);
}

/**
 * A condition on generations or usage_daily rows: the member's own, recorded with its member (migration 0024) or,
 * for rows written before, made with one of its keys.
 */
export function madeByMember(db: DbOrTrx, organizationId: string, memberUserId: string): RawBuilder<boolean> {
  return sql<boolean>`(member_user_id = ${memberUserId} or api_key_id in (${keysOfMember(db, organizationId, memberUserId)}))`;
}
