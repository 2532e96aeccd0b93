// Stored turns in the database (repositories/stored-responses.ts), kept for the retention the operator sets
// (MODELGATE_RESPONSE_RETENTION_DAYS): a turn past it is never served, and the purge deletes it.
import type { DbOrTrx } from '../db/database.js';
import type { StoredResponseRow } from '../db/tables/stored-responses.js';
import { findStoredResponse, insertStoredResponse } from '../repositories/stored-responses.js';
import { turnJson, type ResponseMemory, type StoredTurn, type TurnOwner } from '../core/stored-turn.js';
import { turnVisibleTo } from './turn-visibility.js';

const DAY_MS = 86_400_000;

export class DatabaseMemory implements ResponseMemory {
  constructor(
    private readonly db: DbOrTrx,
    private readonly retentionDays: number,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async get(id: string, owner: TurnOwner): Promise<StoredTurn | undefined> {
    // No id holds a NUL character (PostgreSQL text cannot even be asked for one): such a turn does not exist.
    if (id.includes('\u0000')) return undefined;
    const row = await findStoredResponse(this.db, { id, organizationId: owner.organizationId, now: this.now() });
    if (!row) return undefined;
    const turn = turnOfRow(row);
    return turnVisibleTo(turn, owner) ? turn : undefined;
  }

  async put(turn: StoredTurn): Promise<void> {
    const json = turnJson(turn);
    await insertStoredResponse(this.db, {
      id: turn.id,
      organization_id: turn.owner.organizationId,
      member_user_id: turn.owner.memberUserId,
      api_key_id: turn.owner.keyId,
      model: turn.model,
      previous_response_id: turn.previousResponseId,
      root_id: turn.rootId,
      input_items: json.input,
      response: json.response,
      created_at: turn.createdAt,
      expires_at: new Date(turn.createdAt.getTime() + this.retentionDays * DAY_MS),
    });
  }
}

export function turnOfRow(row: StoredResponseRow): StoredTurn {
  return {
    id: row.id,
    owner: { organizationId: row.organization_id, memberUserId: row.member_user_id, keyId: row.api_key_id },
    model: row.model,
    previousResponseId: row.previous_response_id,
    rootId: row.root_id,
    input: row.input_items,
    response: row.response,
    createdAt: row.created_at,
    store: true,
  };
}
