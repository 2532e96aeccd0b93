// The upstream that serves pass/ models: one OpenAI-compatible endpoint, configured like any provider by
// PASS_API_KEY and PASS_BASE_URL (the registry derives both from the id "pass"). It is not one of the catalog's
// providers (the catalog reserves the id "pass" for the model namespace), but the catalog lists it among the
// upstreams its models are served by (Catalog.upstreams), which the provider registry is built from.
//
// The default base URL is OpenRouter's, and the catalog's pass/ entries name their `upstream_model` in
// OpenRouter's slugs ("qwen/qwen3-coder"). An operator pointing PASS_BASE_URL at another server (vLLM,
// a hosting vendor) overrides the catalog (MODELGATE_CATALOG) with that server's model names. A single
// model can be served elsewhere by setting its entry's `upstream_provider` to any catalog provider id
// (it then uses that provider's key and base URL).
import { PASS_NAMESPACE, type CatalogProvider } from './types.js';

export const PASS_UPSTREAM: CatalogProvider = {
  id: PASS_NAMESPACE,
  name: 'Subscription upstream',
  kind: 'openai-compatible',
  baseUrl: 'https://openrouter.ai/api/v1',
};
