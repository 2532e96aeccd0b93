// The catalog's `aliases`: other names for catalog models, for the names clients send on their defaults (Gemini CLI's
// classifier and utility models, bare vendor names). An alias points at a catalog id, never at another alias, and
// never takes a catalog id's name: a catalog id always means its own model.
import { fail, readObject, readOptionalString, readString, rejectUnknownKeys } from './read-fields.js';
import type { CatalogAlias, CatalogEntry } from './types.js';

const ALIAS_KEYS = ['name', 'model', 'description'];
// A bare vendor name (`gpt-5.5`) or the `<provider>/<name>` form a door makes of one (`google/gemini-3.5-flash-lite`).
// Names starting with `@` are kept for presets.
const ALIAS_NAME = /^[A-Za-z0-9][A-Za-z0-9._:/+-]*$/;

export function parseAliases(raw: unknown, models: readonly CatalogEntry[], source: string): CatalogAlias[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) fail(`${source}: aliases`, 'must be an array');
  const ids = new Set(models.map((m) => m.id));
  const seen = new Set<string>();
  return raw.map((value, i) => {
    const where = `${source}: aliases[${i}]`;
    const obj = readObject(value, where);
    rejectUnknownKeys(obj, ALIAS_KEYS, where);
    const name = readString(obj, 'name', where);
    const model = readString(obj, 'model', where);
    if (!ALIAS_NAME.test(name) || name.endsWith('/') || name.includes('//'))
      fail(where, `name "${name}" must be letters, digits and . _ : / + - (not starting with "@")`);
    if (ids.has(name)) fail(where, `name "${name}" is a catalog model id; an alias never hides one`);
    if (seen.has(name)) fail(where, `duplicate alias name "${name}"`);
    if (!ids.has(model))
      fail(where, `model "${model}" is not a catalog model id (an alias names a model, not an alias)`);
    seen.add(name);
    const description = readOptionalString(obj, 'description', where);
    return description === undefined ? { name, model } : { name, model, description };
  });
}
