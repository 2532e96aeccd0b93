import type { DbOrTrx } from '../db/database.js';
import type { PresetRow } from '../db/tables/presets.js';
import type { PresetSettings } from '../core/preset.js';

/** The latest version of each of an organization's presets, by slug. */
export async function listLatestPresets(db: DbOrTrx, organizationId: string): Promise<PresetRow[]> {
  return db
    .selectFrom('presets')
    .selectAll()
    .distinctOn('slug')
    .where('organization_id', '=', organizationId)
    .orderBy('slug')
    .orderBy('version', 'desc')
    .execute();
}

/** Every version of one preset, newest first. */
export async function listPresetVersions(
  db: DbOrTrx,
  key: { organizationId: string; slug: string },
): Promise<PresetRow[]> {
  return db
    .selectFrom('presets')
    .selectAll()
    .where('organization_id', '=', key.organizationId)
    .where('slug', '=', key.slug)
    .orderBy('version', 'desc')
    .execute();
}

export async function findPresetVersion(
  db: DbOrTrx,
  key: { organizationId: string; slug: string; version: number },
): Promise<PresetRow | undefined> {
  return db
    .selectFrom('presets')
    .selectAll()
    .where('organization_id', '=', key.organizationId)
    .where('slug', '=', key.slug)
    .where('version', '=', key.version)
    .executeTakeFirst();
}

/** How many presets (slugs) the organization has, and how many versions the slug has. */
export async function countPresets(
  db: DbOrTrx,
  key: { organizationId: string; slug: string },
): Promise<{ presets: number; versions: number; latest: number }> {
  const rows = await db
    .selectFrom('presets')
    .select(['slug', (eb) => eb.fn.countAll<string>().as('versions'), (eb) => eb.fn.max('version').as('latest')])
    .where('organization_id', '=', key.organizationId)
    .groupBy('slug')
    .execute();
  const own = rows.find((row) => row.slug === key.slug);
  return { presets: rows.length, versions: Number(own?.versions ?? 0), latest: Number(own?.latest ?? 0) };
}

/** Saves a new version (the caller holds the organization's lock and chose the number). */
export async function insertPresetVersion(
  db: DbOrTrx,
  row: { organizationId: string; slug: string; version: number; description: string | null; preset: PresetSettings },
): Promise<PresetRow> {
  return db
    .insertInto('presets')
    .values({
      organization_id: row.organizationId,
      slug: row.slug,
      version: row.version,
      description: row.description,
      // jsonb written as text so both dialects (pg, PGlite) send the same parameter.
      preset: JSON.stringify(row.preset),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Removes every version of a preset; returns how many there were. */
export async function deletePreset(db: DbOrTrx, key: { organizationId: string; slug: string }): Promise<number> {
  const result = await db
    .deleteFrom('presets')
    .where('organization_id', '=', key.organizationId)
    .where('slug', '=', key.slug)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
