// The organization's presets (services/presets.ts checks the role). A change drops the organization from this
// process's preset cache at once; other processes hear it from the database's notification.
import type { HandlerParts } from './handler-parts.js';
import type { Handler } from '../http/openapi-router.js';
import { principalOf } from '../http/authenticate.js';
import {
  organizationPresets,
  presetEditorOf,
  presetVersion,
  presetVersions,
  removePreset,
  savePreset,
  type PresetRow,
} from '../services/presets.js';
import type { PresetSettings } from '../core/preset.js';

type PresetParts = Pick<HandlerParts, 'catalog' | 'db' | 'presets'>;

export function toWirePreset(row: PresetRow) {
  return {
    object: 'preset' as const,
    slug: row.slug,
    version: row.version,
    description: row.description,
    preset: row.preset,
    created_at: row.created_at.toISOString(),
  };
}

function slugOf(params: unknown): string {
  const raw = String((params as { slug: string }).slug);
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

export function listPresets(parts: PresetParts): Handler {
  return async (_api, ctx) => {
    ctx.body = { data: (await organizationPresets(parts.db, principalOf(ctx).organizationId)).map(toWirePreset) };
  };
}

export function getPreset(parts: PresetParts): Handler {
  return async (api, ctx) => {
    const key = { organizationId: principalOf(ctx).organizationId, slug: slugOf(api.request.params) };
    const rows = await presetVersions(parts.db, key);
    ctx.body = {
      ...toWirePreset(rows[0]),
      versions: rows.map((row) => ({
        version: row.version,
        description: row.description,
        created_at: row.created_at.toISOString(),
      })),
    };
  };
}

export function getPresetVersion(parts: PresetParts): Handler {
  return async (api, ctx) => {
    const params = api.request.params as { version: string };
    const key = {
      organizationId: principalOf(ctx).organizationId,
      slug: slugOf(api.request.params),
      version: Number(params.version),
    };
    ctx.body = toWirePreset(await presetVersion(parts.db, key));
  };
}

export function createPreset(parts: PresetParts): Handler {
  return async (api, ctx) => {
    const body = api.request.requestBody as {
      slug: string;
      description?: string | null;
      preset?: PresetSettings;
      from_request?: Record<string, unknown>;
    };
    const editor = presetEditorOf(principalOf(ctx));
    const row = await savePreset(parts.db, editor, {
      catalog: parts.catalog,
      save: { slug: body.slug, description: body.description, preset: body.preset, fromRequest: body.from_request },
    });
    parts.presets?.invalidate(editor.organizationId);
    ctx.status = 201;
    ctx.body = toWirePreset(row);
  };
}

export function deletePreset(parts: PresetParts): Handler {
  return async (api, ctx) => {
    const slug = slugOf(api.request.params);
    const editor = presetEditorOf(principalOf(ctx));
    await removePreset(parts.db, editor, slug);
    parts.presets?.invalidate(editor.organizationId);
    ctx.body = { slug, deleted: true };
  };
}
