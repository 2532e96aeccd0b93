// An organization's generation records (a member: its own, made with its keys or token), as the account API shows them (GET /generation, /generations, /activity): one
// record by id, the latest records, and usage per UTC day and model. Another user's record is never found.
import type { DbOrTrx } from '../db/database.js';
import type { GenerationRow } from '../db/tables/generations.js';
import { findGenerationForUser } from '../repositories/generations.js';
import {
  activityWindowStart,
  listDailyUsage,
  listRecentGenerations,
  type DailyModelUsage,
} from '../repositories/activity.js';

/** A generation record as its owner reads it. */
export type GenerationView = GenerationRow;
export type { DailyModelUsage };

export function findGeneration(
  db: DbOrTrx,
  input: { userId: string; id: string; memberUserId?: string },
): Promise<GenerationView | undefined> {
  // No id holds a NUL character (PostgreSQL text cannot even be asked for one): such a record does not exist.
  if (input.id.includes('\u0000')) return Promise.resolve(undefined);
  return findGenerationForUser(db, input);
}

export function recentGenerations(
  db: DbOrTrx,
  input: { userId: string; limit: number; memberUserId?: string },
): Promise<GenerationView[]> {
  return listRecentGenerations(db, input);
}

/** Usage per UTC day and model over the last `days` days, today included. */
export function dailyUsage(
  db: DbOrTrx,
  input: { userId: string; days: number; now: Date; memberUserId?: string },
): Promise<DailyModelUsage[]> {
  return listDailyUsage(db, {
    userId: input.userId,
    memberUserId: input.memberUserId,
    since: activityWindowStart(input.now, input.days),
  });
}
