// Messages clients name models the Anthropic way: Claude Code sends `claude-sonnet-5-5` or a dated snapshot such
// as `claude-sonnet-5-5-20250929`. A name without a provider prefix is looked up as the catalog's `anthropic/` model
// of that name, then without its date suffix; gateway ids (`openai/gpt-5.4-mini`, `pass/...`) pass unchanged.
import type { Catalog } from '../../catalog/catalog.js';

const DATE_SUFFIX = /-\d{8}$/;

export function gatewayModelId(catalog: Pick<Catalog, 'get'>, model: string): string {
  if (model.includes('/')) return model;
  const bare = `anthropic/${model}`;
  if (catalog.get(bare)) return bare;
  const undated = `anthropic/${model.replace(DATE_SUFFIX, '')}`;
  // Unknown either way: the anthropic/ id makes the 404 name the form the gateway expects.
  return catalog.get(undated) ? undated : bare;
}
