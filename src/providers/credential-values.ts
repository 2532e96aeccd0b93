// The secret values of this gateway's configuration, which no answer to a client may contain. An upstream that echoes
// its request headers in an error ("invalid x-api-key: <key>") would otherwise hand the operator's provider key to
// whoever sent the request; the vendors' own message filters know only the keys with a recognisable prefix (`sk-`).

/** Shorter values are not real credentials (test keys such as "k"); removing them would garble every message. */
export const MIN_SECRET_LENGTH = 8;

/** Environment variables whose values are secrets by their name. */
const SECRET_NAME = /(_API_KEY|_TOKEN|_SECRET|_PASSWORD)$/i;
/** Environment variables holding URLs, whose user name and password are secrets. */
const URL_NAME = /(_URL)$/i;

/**
 * Every configured credential: each provider's key (also the alias variables, e.g. GEMINI_API_KEY, whether or not
 * they won), every `*_API_KEY`, `*_TOKEN`, `*_SECRET`, `*_PASSWORD` value (MODELGATE_METRICS_TOKEN, PASS_API_KEY) and
 * the user information of every `*_URL` (DATABASE_URL, MODELGATE_REDIS_URL, a `<PROVIDER>_BASE_URL` with a login).
 */
export function credentialValues(env: NodeJS.ProcessEnv, providerKeys: readonly (string | undefined)[]): string[] {
  const values = new Set<string>();
  const add = (value: string | undefined) => {
    const trimmed = value?.trim();
    if (trimmed && trimmed.length >= MIN_SECRET_LENGTH) values.add(trimmed);
  };
  for (const key of providerKeys) add(key);
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    if (SECRET_NAME.test(name)) add(value);
    else if (URL_NAME.test(name)) for (const part of urlCredentials(value)) add(part);
  }
  return [...values];
}

/** The user name and password of a URL, as written and decoded (either may be echoed). */
function urlCredentials(value: string): string[] {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return [];
  }
  const parts = [url.username, url.password].filter((part) => part !== '');
  return [...parts, ...parts.map(safeDecode)];
}

function safeDecode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}
