// gen_ai.provider.name takes the GenAI semantic conventions' well-known values where a provider has one, so trace
// backends that key their LLM views on them (x_ai, mistral_ai, gcp.gemini) recognise the gateway's spans; any other
// provider keeps the catalog's id. The catalog id itself is always on the span as `modelgate.provider`.
// https://opentelemetry.io/docs/specs/semconv/registry/attributes/gen-ai/#gen-ai-provider-name
const WELL_KNOWN: ReadonlyMap<string, string> = new Map([
  ['google', 'gcp.gemini'],
  ['gemini', 'gcp.gemini'],
  ['mistral', 'mistral_ai'],
  ['x-ai', 'x_ai'],
  ['xai', 'x_ai'],
]);

export function genAiProviderName(providerId: string): string {
  return WELL_KNOWN.get(providerId) ?? providerId;
}
