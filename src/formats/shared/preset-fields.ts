// What every door's preset fill shares: a field is set only where the request leaves it out (the request's own
// fields win over the preset's).
import type { PresetTool } from '../../core/preset.js';

/** Sets `body[key]` to `value` when the body has no such field and the preset has a value. */
export function fillAbsent(body: Record<string, unknown>, key: string, value: unknown): void {
  if (value === undefined || (body[key] !== undefined && body[key] !== null)) return;
  body[key] = value;
}

/** The preset's functions as name, description and JSON Schema, for doors that spell tools their own way. */
export function presetFunctions(tools: readonly PresetTool[] | undefined): PresetTool['function'][] | undefined {
  return tools === undefined || tools.length === 0 ? undefined : tools.map((tool) => tool.function);
}
