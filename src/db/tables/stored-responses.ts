import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';

/** `stored_responses` (migration 0018): one turn of the Responses API kept for `previous_response_id` and GET. */
export interface StoredResponsesTable {
  id: string;
  organization_id: string;
  member_user_id: string;
  /** The key that created it (null: an account token). */
  api_key_id: string | null;
  /** The gateway model id that served the turn. */
  model: string;
  previous_response_id: string | null;
  /** The chain's first turn (itself when it continued none). */
  root_id: string;
  /** The turn's own new input items (jsonb array). */
  input_items: ColumnType<unknown[], string, string>;
  /** The Response object as answered (jsonb), its output items inside. */
  response: ColumnType<Record<string, unknown>, string, string>;
  created_at: Generated<Date>;
  expires_at: Date;
}

export type StoredResponseRow = Selectable<StoredResponsesTable>;
export type NewStoredResponse = Insertable<StoredResponsesTable>;
