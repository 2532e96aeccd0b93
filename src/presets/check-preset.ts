// What a preset may hold, checked before it is saved: the catalog models it names (stored as catalog ids, so a later
// catalog alias change cannot move it), and its size. A preset saved from a request body keeps that request's
// settings and system prompt, never its conversation.
import type { Catalog } from '../catalog/catalog.js';
import { GatewayError } from '../core/gateway-error.js';
import type { PresetSettings, PresetTool } from '../core/preset.js';

/** Every cached organization holds its presets' latest versions in memory: a bound keeps each small. */
export const MAX_PRESET_BYTES = 32 * 1024;

function invalid(field: string, message: string, reason: string): GatewayError {
  return new GatewayError(400, `Invalid request: ${message}`, { field, reason });
}

function catalogId(catalog: Pick<Catalog, 'get'>, field: string, model: string): string {
  const entry = catalog.get(model);
  if (!entry) throw invalid(field, `"${model}" is not a catalog model id`, 'unknown_model');
  // A catalog alias is stored as the model it stands for, as organization aliases are.
  return entry.id;
}

/** The settings as stored: models as catalog ids, empty fields left out; a 400 saying what is wrong otherwise. */
export function checkedPresetSettings(catalog: Pick<Catalog, 'get'>, settings: PresetSettings): PresetSettings {
  if (settings.model === undefined && (settings.models?.length ?? 0) === 0)
    throw invalid('preset.model', 'a preset names a model (`model`) or models (`models`)', 'model_required');
  const checked: PresetSettings = { ...settings };
  if (settings.model !== undefined) checked.model = catalogId(catalog, 'preset.model', settings.model);
  if (settings.models !== undefined)
    checked.models = settings.models.map((m) => catalogId(catalog, 'preset.models', m));
  for (const key of Object.keys(checked) as (keyof PresetSettings)[])
    if (checked[key] === undefined) delete checked[key];
  const bytes = Buffer.byteLength(JSON.stringify(checked));
  if (bytes > MAX_PRESET_BYTES)
    throw invalid(
      'preset',
      `a preset is at most ${MAX_PRESET_BYTES} bytes of JSON (this one is ${bytes})`,
      'preset_too_large',
    );
  return checked;
}

type TextPart = { type?: string; text?: string };
type RequestMessage = { role?: string; content?: string | TextPart[] | null };

/** The text of a system or developer message: a string, or its text parts joined. */
function messageText(content: RequestMessage['content']): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter((part) => part?.type === 'text' && typeof part.text === 'string')
    .map((part) => part.text)
    .join('\n');
}

/**
 * The preset a chat-completions request body makes: its model and fallbacks, provider preferences, sampling,
 * reasoning and tools, and its system and developer messages as the system prompt. Its other messages are left out.
 */
export function presetFromRequest(body: Record<string, unknown>): PresetSettings {
  const settings: PresetSettings = {};
  if (typeof body.model === 'string') settings.model = body.model;
  if (Array.isArray(body.models)) settings.models = body.models as string[];
  if (body.provider !== undefined && body.provider !== null)
    settings.provider = body.provider as PresetSettings['provider'];
  if (typeof body.temperature === 'number') settings.temperature = body.temperature;
  if (typeof body.top_p === 'number') settings.top_p = body.top_p;
  const cap = body.max_completion_tokens ?? body.max_tokens;
  if (typeof cap === 'number') settings.max_tokens = cap;
  if (typeof body.stop === 'string') settings.stop = [body.stop];
  else if (Array.isArray(body.stop)) settings.stop = body.stop as string[];
  if (typeof body.reasoning === 'object' && body.reasoning !== null)
    settings.reasoning = body.reasoning as PresetSettings['reasoning'];
  if (Array.isArray(body.tools)) settings.tools = body.tools as PresetTool[];
  const messages = Array.isArray(body.messages) ? (body.messages as RequestMessage[]) : [];
  const system = messages
    .filter((m) => m?.role === 'system' || m?.role === 'developer')
    .map((m) => messageText(m.content))
    .filter((text) => text !== '')
    .join('\n\n');
  if (system !== '') settings.system = system;
  return settings;
}
