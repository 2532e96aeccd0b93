// The preset a request's model names (`@preset/<slug>` or `@preset/<slug>@<version>`), from the organization's
// presets in memory (preset-cache.ts), and the routing facts it fills: its model, and its fallback models and
// provider preferences where the request sends none. Unknown presets and versions are 404s in the door's envelope.
import { GatewayError } from '../core/gateway-error.js';
import type { RequestFacts } from '../core/request-facts.js';
import type { PresetCache } from './preset-cache.js';
import { presetModelOf, presetReferenceOf, type PresetVersion } from '../core/preset.js';

/** The version `model` names, undefined when it names no preset. */
export async function resolvePreset(
  presets: Pick<PresetCache, 'find'> | undefined,
  request: { organizationId: string; model: string },
): Promise<PresetVersion | undefined> {
  const reference = presetReferenceOf(request.model);
  if (reference === undefined) return undefined;
  const found = presets === undefined ? undefined : await presets.find(request.organizationId, reference);
  if (found !== undefined) return found;
  const latest =
    reference.version === undefined || presets === undefined
      ? undefined
      : await presets.find(request.organizationId, { slug: reference.slug });
  if (latest !== undefined)
    throw new GatewayError(404, `Preset "${reference.slug}" has no version ${reference.version}`, {
      model: request.model,
      reason: 'preset_version_not_found',
      latest_version: latest.version,
    });
  throw new GatewayError(404, `Preset "${reference.slug}" not found in this organization`, {
    model: request.model,
    reason: 'preset_not_found',
  });
}

/** The facts routing and admission read, with the preset's model, fallbacks and provider preferences. */
export function withPresetRouting(facts: RequestFacts, preset: PresetVersion): RequestFacts {
  const { settings } = preset;
  const routed: RequestFacts = { ...facts, model: presetModelOf(settings) };
  if (facts.models === undefined && settings.models !== undefined) routed.models = settings.models;
  if (facts.provider === undefined && settings.provider !== undefined) routed.provider = settings.provider;
  return routed;
}
