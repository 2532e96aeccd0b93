/** Which API a provider speaks, so which adapter serves it: the catalog names it per provider, the registry picks the
 *  adapter by it. */
export type ProviderKind = 'openai-compatible' | 'anthropic' | 'gemini';

export const PROVIDER_KINDS: readonly ProviderKind[] = ['openai-compatible', 'anthropic', 'gemini'];
