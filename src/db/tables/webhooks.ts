import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

/** `webhook_endpoints` (migration 0017): where an organization's events are sent. */
export interface WebhookEndpointsTable {
  id: string;
  organization_id: string;
  url: string;
  description: string | null;
  /** Event types the endpoint receives (jsonb array of strings). */
  event_types: ColumnType<string[], string, string>;
  /** Fractions of a budget at which `budget.threshold` fires (jsonb array of numbers). */
  budget_thresholds: ColumnType<number[], string, string>;
  /** `credits.low` fires when the balance crosses below this. */
  credits_low_nanos: bigint;
  /** The signing secret, sealed by src/auth/secret-box.ts. */
  secret_ciphertext: string;
  disabled: Generated<boolean>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export type WebhookEndpointRow = Selectable<WebhookEndpointsTable>;
export type NewWebhookEndpoint = Insertable<WebhookEndpointsTable>;
export type WebhookEndpointUpdate = Updateable<WebhookEndpointsTable>;

/** `webhook_events`: the outbox; `payload` is the body sent, `{ type, timestamp, data }`. */
export interface WebhookEventsTable {
  id: string;
  organization_id: string;
  type: string;
  payload: ColumnType<WebhookPayload, string, string>;
  created_at: Generated<Date>;
}

export interface WebhookPayload {
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
}

export type WebhookDeliveryStatus = 'pending' | 'delivered' | 'failed';

/** `webhook_deliveries`: one event to one endpoint. */
export interface WebhookDeliveriesTable {
  id: Generated<bigint>;
  event_id: string;
  endpoint_id: string;
  status: Generated<WebhookDeliveryStatus>;
  attempts: Generated<number>;
  /** When the next try is due; while a deliverer holds the row, the end of its lease. */
  next_attempt_at: Generated<Date>;
  created_at: Generated<Date>;
  finished_at: Date | null;
}

export type WebhookDeliveryRow = Selectable<WebhookDeliveriesTable>;

/** `webhook_attempts`: one try of a delivery. */
export interface WebhookAttemptsTable {
  id: Generated<bigint>;
  delivery_id: bigint;
  attempt: number;
  started_at: Date;
  duration_ms: number;
  status_code: number | null;
  error: string | null;
  /** When the delivery is tried again; null when it was the last try. */
  next_attempt_at: Date | null;
}

export type WebhookAttemptRow = Selectable<WebhookAttemptsTable>;
