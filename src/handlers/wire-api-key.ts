// DB row → the ApiKey wire shape. The secret is never part of it; only its display prefix.
import type { components } from '../../generated/openapi-types.js';

type ApiKey = components['schemas']['ApiKey'];

export function toWireApiKey(row: {
  id: string;
  name: string;
  display_prefix: string;
  created_at: Date;
  last_used_at: Date | null;
}): ApiKey {
  return {
    key_id: row.id,
    name: row.name,
    prefix: row.display_prefix,
    created_at: row.created_at.toISOString(),
    last_used_at: row.last_used_at ? row.last_used_at.toISOString() : null,
  };
}
