// Messages clients name models the Anthropic way: Claude Code sends `claude-sonnet-5-5` or a dated snapshot such
// as `claude-sonnet-5-5-20250929`. A name without a provider prefix is looked up as the catalog's `anthropic/` model
// of that name, then without its date suffix, then as a catalog alias; gateway ids (`openai/gpt-5.4-mini`,
// `pass/...`) pass unchanged.
import type { Catalog } from '../../catalog/catalog.js';

const DATE_SUFFIX = /-\d{8}$/;

export function gatewayModelId(catalog: Pick<Catalog, 'get'>, model: string): string {
  if (model.includes('/')) return model;
  const bare = `anthropic/${model}`;
  if (catalog.get(bare)) return bare;
  const undated = `anthropic/${model.replace(DATE_SUFFIX, '')}`;
  if (catalog.get(undated)) return undated;
  // A catalog alias by that bare name (`gpt-5.5`); unknown otherwise: the anthropic/ id makes the 404 name the form
  // the gateway expects.
  return catalog.get(model) ? model : bare;
}
