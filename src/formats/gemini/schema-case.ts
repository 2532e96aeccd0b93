// Gemini's `Schema` (an OpenAPI 3.0 subset whose types are upper case: `OBJECT`, `STRING`; Gemini CLI's classifier
// sends them so) → JSON Schema, which the internal request carries for tools and JSON output. Types become lower
// case and `nullable: true` a type list with `null`, through properties, items and anyOf; every other keyword stays.
type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function jsonSchemaOfGemini(schema: unknown, depth = 0): unknown {
  // Depth is bounded by the body's nesting limit (128); this guards direct callers.
  if (!isRecord(schema) || depth > 256) return schema;
  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    switch (key) {
      case 'type':
        out.type = typeof value === 'string' ? value.toLowerCase() : value;
        break;
      case 'nullable':
        break; // folded into `type` below
      case 'properties':
        out.properties = isRecord(value)
          ? Object.fromEntries(
              Object.entries(value).map(([name, inner]) => [name, jsonSchemaOfGemini(inner, depth + 1)]),
            )
          : value;
        break;
      case 'items':
        out.items = jsonSchemaOfGemini(value, depth + 1);
        break;
      case 'anyOf':
        out.anyOf = Array.isArray(value) ? value.map((inner) => jsonSchemaOfGemini(inner, depth + 1)) : value;
        break;
      default:
        out[key] = value;
    }
  }
  if (schema.nullable === true && typeof out.type === 'string' && out.type !== 'null') out.type = [out.type, 'null'];
  return out;
}
