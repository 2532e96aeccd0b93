// A preset: an organization's saved request settings under a slug, named as the model (`@preset/<slug>`, or
// `@preset/<slug>@<version>` to pin a version). Each save of a slug is a new version, never changed afterwards.
// The settings are the chat-completions request's own fields (OpenRouter's presets); each door puts them where its
// protocol keeps them (formats/<door>/preset-fill.ts).
import { GatewayError } from './gateway-error.js';
import type { ProviderPreferences } from './request-facts.js';

export const PRESET_PREFIX = '@preset/';

/** A function the model may call, in the chat-completions shape (`{ type: 'function', function: {...} }`). */
export interface PresetTool {
  type: 'function';
  function: { name: string; description?: string; parameters?: Record<string, unknown>; strict?: boolean };
}

export interface PresetReasoning {
  effort?: string;
  max_tokens?: number;
  exclude?: boolean;
  enabled?: boolean;
}

/** What a preset fills in: each field only where the request leaves it out. */
export interface PresetSettings {
  /** The catalog model id the preset serves (its first choice). */
  model?: string;
  /** Fallback models, in order. */
  models?: string[];
  provider?: ProviderPreferences;
  /** The system prompt (chat: a system message; Messages: `system`; Responses: `instructions`; Gemini: `systemInstruction`). */
  system?: string;
  temperature?: number;
  top_p?: number;
  max_tokens?: number;
  stop?: string[];
  reasoning?: PresetReasoning;
  tools?: PresetTool[];
}

/** One version of a preset as the gateway serves it. */
export interface PresetVersion {
  slug: string;
  version: number;
  settings: PresetSettings;
}

/** What `model` asks for: a preset's latest version, or the version it pins. */
export interface PresetReference {
  slug: string;
  version?: number;
}

const VERSION = /^[1-9][0-9]{0,8}$/;

/** The preset a model id names, or undefined when it names no preset. A malformed version is a 400. */
export function presetReferenceOf(model: string): PresetReference | undefined {
  if (!model.startsWith(PRESET_PREFIX)) return undefined;
  const rest = model.slice(PRESET_PREFIX.length);
  const at = rest.indexOf('@');
  if (at === -1) return { slug: rest };
  const version = rest.slice(at + 1);
  if (!VERSION.test(version))
    throw new GatewayError(400, `Invalid model: "${model}" pins a version that is not a positive whole number`, {
      field: 'model',
      reason: 'invalid_preset_version',
    });
  return { slug: rest.slice(0, at), version: Number(version) };
}

/** The model the preset serves first: its `model`, else the first of its `models`. */
export function presetModelOf(settings: PresetSettings): string {
  return settings.model ?? settings.models?.[0] ?? '';
}
