// The one definition of a well-formed model id: "<provider>/<model-name>". The model name may itself
// contain slashes (OpenRouter and Groq name models "vendor/model"), so only the first slash splits.

/** The form shown to users in every model-id error message. */
export const MODEL_ID_FORM = '<provider>/<model-name>';

const PROVIDER = /^[a-z0-9][a-z0-9-]*$/;
// Letters, digits and the punctuation vendors use in model names (".", "-", "_", ":", "/", "+", "@").
const MODEL_NAME = /^[A-Za-z0-9][A-Za-z0-9._:/+@-]*$/;

export interface ModelIdParts {
  provider: string;
  name: string;
}

/** Splits a model id, or returns undefined when it is not of the form "<provider>/<model-name>". */
export function parseModelId(id: unknown): ModelIdParts | undefined {
  if (typeof id !== 'string') return undefined;
  const slash = id.indexOf('/');
  if (slash <= 0) return undefined;
  const provider = id.slice(0, slash);
  const name = id.slice(slash + 1);
  if (!PROVIDER.test(provider) || !MODEL_NAME.test(name)) return undefined;
  if (name.endsWith('/') || name.includes('//')) return undefined;
  return { provider, name };
}
