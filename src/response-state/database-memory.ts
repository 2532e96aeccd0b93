// Stored turns in the database (repositories/stored-responses.ts), kept for the retention the operator sets
// (MODELGATE_RESPONSE_RETENTION_DAYS): a turn past it is never served, and the purge deletes it.
// Writes are group-committed: a turn is written at once when no write is in flight, and the turns answered meanwhile go
// out together in the next statement, so a busy gateway pays one round trip and one commit for many turns.
import type { DbOrTrx } from '../db/database.js';
import type { NewStoredResponse, StoredResponseRow } from '../db/tables/stored-responses.js';
import { findStoredResponse, insertStoredResponses } from '../repositories/stored-responses.js';
import { turnJson, type ResponseMemory, type StoredTurn, type TurnOwner } from '../core/stored-turn.js';
import { turnVisibleTo } from './turn-visibility.js';

const DAY_MS = 86_400_000;
/** A statement's bound: agents' turns can hold whole conversations of several hundred KB each. */
const MAX_BATCH = { turns: 100, chars: 8 * 1024 * 1024 };

interface PendingWrite {
  row: NewStoredResponse;
  chars: number;
  written: (err?: unknown) => void;
}

export class DatabaseMemory implements ResponseMemory {
  private pending: PendingWrite[] = [];
  private writing = false;

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

  /** Resolves once the turn is committed; rejects when the database refused it. */
  put(turn: StoredTurn): Promise<void> {
    const json = turnJson(turn);
    const row: NewStoredResponse = {
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
    };
    return new Promise<void>((resolve, reject) => {
      const chars = json.input.length + json.response.length;
      this.pending.push({ row, chars, written: (err) => (err === undefined ? resolve() : reject(err)) });
      if (!this.writing) void this.writeAll();
    });
  }

  private async writeAll(): Promise<void> {
    this.writing = true;
    try {
      while (this.pending.length > 0) await this.write(this.nextBatch());
    } finally {
      this.writing = false;
    }
  }

  private nextBatch(): PendingWrite[] {
    let chars = 0;
    let count = 0;
    while (count < this.pending.length && count < MAX_BATCH.turns) {
      chars += this.pending[count].chars;
      if (count > 0 && chars > MAX_BATCH.chars) break;
      count++;
    }
    return this.pending.splice(0, count);
  }

  /** A batch the database refuses is written turn by turn, so one bad turn cannot lose the others. */
  private async write(batch: PendingWrite[]): Promise<void> {
    try {
      await insertStoredResponses(
        this.db,
        batch.map((write) => write.row),
      );
      for (const write of batch) write.written();
    } catch (err) {
      if (batch.length === 1) {
        batch[0].written(err);
        return;
      }
      for (const write of batch) await this.write([write]);
    }
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
