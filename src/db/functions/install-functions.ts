import { sql } from 'kysely';
import type { Db, DbOrTrx } from '../database.js';
import { LIVING_FUNCTIONS } from './index.js';
import type { LivingFunction } from './living-function.js';

// Each function's revision is kept in its comment, so no table (and no migration) is needed to know what a database
// holds. The install runs under a transaction-scoped advisory lock: instances starting together take turns (two
// concurrent `create or replace function` of one function fail with "tuple concurrently updated"), and the last one
// finds nothing left to do.
const INSTALL_LOCK = 7_338_214_905_117_203_601n;
const REVISION_COMMENT = /^modelgate revision (\d+)$/;

interface Installed {
  body: string;
  /** 0 when the comment names none (a function a migration wrote). */
  revision: number;
}

/**
 * Puts every living definition in place unless the database holds a higher revision of it, or the same revision
 * with the same text. Idempotent; safe from several processes at once and on PGlite and PostgreSQL alike.
 */
export async function installFunctions(db: Db, functions: readonly LivingFunction[] = LIVING_FUNCTIONS): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await sql.raw(`select pg_advisory_xact_lock(${INSTALL_LOCK})`).execute(trx);
    for (const fn of functions) {
      const installed = await readInstalled(trx, fn);
      if (installed !== undefined && isCurrent(installed, fn)) continue;
      await sql.raw(createStatement(fn)).execute(trx);
      await sql.raw(`comment on function ${signature(fn)} is '${revisionComment(fn.revision)}'`).execute(trx);
    }
  });
}

function isCurrent(installed: Installed, fn: LivingFunction): boolean {
  // The same revision with another text is a database a migration's `down` rewound, or a development database
  // holding an earlier edit: ours replaces it.
  return installed.revision > fn.revision || (installed.revision === fn.revision && installed.body === fn.body);
}

async function readInstalled(db: DbOrTrx, fn: LivingFunction): Promise<Installed | undefined> {
  const { rows } = await sql<{ body: string; comment: string | null }>`
    select p.prosrc as body, obj_description(p.oid, 'pg_proc') as comment
    from pg_proc p
    where p.proname = ${fn.name} and p.pronamespace = to_regnamespace(current_schema())
      and pg_get_function_identity_arguments(p.oid) = ${fn.parameters}`.execute(db);
  const row = rows[0];
  if (row === undefined) return undefined;
  const revision = REVISION_COMMENT.exec(row.comment ?? '')?.[1];
  return { body: row.body, revision: revision === undefined ? 0 : Number(revision) };
}

/** The statement that (re)defines `fn`. */
export function createStatement(fn: LivingFunction): string {
  return `create or replace function ${signature(fn)} returns ${fn.returns}\nlanguage plpgsql as $fn$${fn.body}$fn$`;
}

function signature(fn: LivingFunction): string {
  return `${fn.name}(${fn.parameters})`;
}

/** What the function's comment says of the revision installed. */
export function revisionComment(revision: number): string {
  return `modelgate revision ${revision}`;
}
