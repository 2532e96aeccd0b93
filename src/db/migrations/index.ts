import type { Migration } from 'kysely';
import * as m0001 from './0001_initial.js';

/**
 * Every migration, oldest first. Names are what Kysely records in `kysely_migration`, so an entry
 * is never renamed or removed once released; append new ones at the end.
 */
export const migrations: ReadonlyArray<readonly [name: string, migration: Migration]> = [
  ['0001_initial', m0001],
];
