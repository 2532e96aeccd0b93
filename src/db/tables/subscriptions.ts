import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

export type SubscriptionPlan = 'pass';

/** `subscriptions`: a paid period [period_start, period_end) unless revoked. */
export interface SubscriptionsTable {
  id: string;
  user_id: string;
  plan: SubscriptionPlan;
  price_nanos: bigint;
  period_start: Date;
  period_end: Date;
  revoked_at: Date | null;
  created_at: Generated<Date>;
}

export type SubscriptionRow = Selectable<SubscriptionsTable>;
export type NewSubscription = Insertable<SubscriptionsTable>;
export type SubscriptionUpdate = Updateable<SubscriptionsTable>;
