import type { ColumnType, Generated, Selectable } from 'kysely';
import type { PresetSettings } from '../../core/preset.js';

/** `presets` (migration 0021): one version of an organization's preset; a version is never changed once saved. */
export interface PresetsTable {
  organization_id: string;
  slug: string;
  version: number;
  description: string | null;
  /** The settings (core/preset.ts), as JSON. */
  preset: ColumnType<PresetSettings, string, string>;
  created_at: Generated<Date>;
}

export type PresetRow = Selectable<PresetsTable>;
