// An organization's presets (`model: "@preset/<slug>"`), shared by the member API and the CLI: every save of a slug
// is a new version; members read, owners and admins (and the operator) save and delete; each change is audited
// (`preset.changed`, `preset.deleted`). Slugs follow alias names' rule (letters, digits and `. _ : + -`).
import type { Catalog } from '../catalog/catalog.js';
import { requireManager } from '../auth/member-roles.js';
import { GatewayError } from '../core/gateway-error.js';
import type { Db, DbOrTrx } from '../db/database.js';
import type { PresetRow } from '../db/tables/presets.js';
import { inTransaction } from '../db/in-transaction.js';
import { checkedPresetSettings, presetFromRequest } from '../presets/check-preset.js';
import { presetModelOf, type PresetSettings } from '../core/preset.js';
import { lockOrganization } from '../repositories/organizations.js';
import {
  countPresets,
  deletePreset,
  findPresetVersion,
  insertPresetVersion,
  listLatestPresets,
  listPresetVersions,
} from '../repositories/presets.js';
import { recordAudit } from './audit-log.js';
import { ALIAS_NAME, aliasEditorOf, type AliasEditor } from './organization-aliases.js';

export type { PresetRow } from '../db/tables/presets.js';

export const MAX_PRESETS_PER_ORGANIZATION = 100;
export const MAX_VERSIONS_PER_PRESET = 100;
const MAX_DESCRIPTION_CHARS = 500;

/** Who saves and deletes presets: the same as for aliases (a member with its role, or the operator). */
export type PresetEditor = AliasEditor;
export const presetEditorOf = aliasEditorOf;

/** A save: the settings themselves, or a chat-completions request body to take them from (one of the two). */
export interface PresetSave {
  slug: string;
  description?: string | null;
  preset?: PresetSettings;
  fromRequest?: Record<string, unknown>;
}

function invalid(field: string, message: string, reason: string): GatewayError {
  return new GatewayError(400, `Invalid request: ${message}`, { field, reason });
}

function notFound(slug: string, version?: number): GatewayError {
  if (version !== undefined)
    return new GatewayError(404, `Preset "${slug}" has no version ${version}`, {
      preset: slug,
      version,
      reason: 'preset_version_not_found',
    });
  return new GatewayError(404, `Preset "${slug}" not found`, { preset: slug, reason: 'preset_not_found' });
}

function checkSlug(slug: string): void {
  if (!ALIAS_NAME.test(slug))
    throw invalid(
      'slug',
      `preset slug "${slug}" must be 1 to 64 letters, digits and . _ : + - (starting with a letter or digit)`,
      'invalid_preset_slug',
    );
}

function settingsOf(catalog: Pick<Catalog, 'get'>, save: PresetSave): PresetSettings {
  if ((save.preset === undefined) === (save.fromRequest === undefined))
    throw invalid('preset', 'send either `preset` or `from_request`, not both or neither', 'preset_source');
  return checkedPresetSettings(catalog, save.preset ?? presetFromRequest(save.fromRequest ?? {}));
}

/** The latest version of each of the organization's presets. */
export function organizationPresets(db: DbOrTrx, organizationId: string): Promise<PresetRow[]> {
  return listLatestPresets(db, organizationId);
}

/** Every version of one preset, newest first; 404 when the organization has none by that slug. */
export async function presetVersions(db: DbOrTrx, key: { organizationId: string; slug: string }): Promise<PresetRow[]> {
  if (!ALIAS_NAME.test(key.slug)) throw notFound(key.slug);
  const rows = await listPresetVersions(db, key);
  if (rows.length === 0) throw notFound(key.slug);
  return rows;
}

export async function presetVersion(
  db: DbOrTrx,
  key: { organizationId: string; slug: string; version: number },
): Promise<PresetRow> {
  if (!ALIAS_NAME.test(key.slug)) throw notFound(key.slug);
  const row = await findPresetVersion(db, key);
  if (row) return row;
  await presetVersions(db, key);
  throw notFound(key.slug, key.version);
}

/** Saves a new version of the slug (its first makes the preset); owner or admin; audited. */
export async function savePreset(
  db: Db,
  editor: PresetEditor,
  input: { catalog: Pick<Catalog, 'get'>; save: PresetSave },
): Promise<PresetRow> {
  requireManager(editor.actor, 'Saving presets');
  const { save } = input;
  checkSlug(save.slug);
  if ((save.description?.length ?? 0) > MAX_DESCRIPTION_CHARS)
    throw invalid('description', `description must be at most ${MAX_DESCRIPTION_CHARS} characters`, 'too_long');
  const preset = settingsOf(input.catalog, save);
  const { organizationId } = editor;
  return inTransaction(db, async (trx) => {
    // One save of an organization at a time: the version numbers and the counts below cannot be raced.
    await lockOrganization(trx, organizationId);
    const counts = await countPresets(trx, { organizationId, slug: save.slug });
    if (counts.versions === 0 && counts.presets >= MAX_PRESETS_PER_ORGANIZATION)
      throw invalid('slug', `an organization has at most ${MAX_PRESETS_PER_ORGANIZATION} presets`, 'too_many_presets');
    if (counts.versions >= MAX_VERSIONS_PER_PRESET)
      throw invalid(
        'slug',
        `a preset keeps at most ${MAX_VERSIONS_PER_PRESET} versions: delete it and save it anew`,
        'too_many_versions',
      );
    const row = await insertPresetVersion(trx, {
      organizationId,
      slug: save.slug,
      version: counts.latest + 1,
      description: save.description ?? null,
      preset,
    });
    await recordAudit(trx, {
      actor: editor.by,
      organizationId,
      action: 'preset.changed',
      target: { type: 'preset', id: save.slug },
      before: counts.latest === 0 ? null : { version: counts.latest },
      // The settings are read back by version (a system prompt may be long): the log names the model it serves.
      after: { version: row.version, description: row.description, model: presetModelOf(row.preset) },
    });
    return row;
  });
}

/** Removes a preset with every version (owner or admin); audited. */
export async function removePreset(db: Db, editor: PresetEditor, slug: string): Promise<number> {
  requireManager(editor.actor, 'Deleting presets');
  if (!ALIAS_NAME.test(slug)) throw notFound(slug);
  const { organizationId } = editor;
  return inTransaction(db, async (trx) => {
    const removed = await deletePreset(trx, { organizationId, slug });
    if (removed === 0) throw notFound(slug);
    await recordAudit(trx, {
      actor: editor.by,
      organizationId,
      action: 'preset.deleted',
      target: { type: 'preset', id: slug },
      before: { versions: removed },
      after: null,
    });
    return removed;
  });
}
