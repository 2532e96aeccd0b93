// The preset cache's loads (preset-cache.ts) over the presets table.
import type { DbOrTrx } from '../db/database.js';
import type { PresetRow } from '../db/tables/presets.js';
import { findPresetVersion, listLatestPresets } from '../repositories/presets.js';
import { PresetCache } from './preset-cache.js';
import type { PresetVersion } from '../core/preset.js';

function versionOf(row: PresetRow): PresetVersion {
  return { slug: row.slug, version: row.version, settings: row.preset };
}

export function presetCacheOver(db: DbOrTrx, options: { ttlMs: number }): PresetCache {
  return new PresetCache({
    loadLatest: async (organizationId) => (await listLatestPresets(db, organizationId)).map(versionOf),
    loadVersion: async (organizationId, reference) => {
      const row = await findPresetVersion(db, { organizationId, ...reference });
      return row === undefined ? undefined : versionOf(row);
    },
    ttlMs: options.ttlMs,
  });
}
