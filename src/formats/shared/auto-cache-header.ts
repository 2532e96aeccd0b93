// `X-Modelgate-Auto-Cache` (chat and Responses doors): `off` turns the automatic cache breakpoints off for the
// request (GenerationRequest.autoCache); anything else, or no header, leaves them on. Lenient on purpose: a typo
// must not cost a client its request, and `on` is the default anyway.
export const AUTO_CACHE_HEADER = 'x-modelgate-auto-cache';

export function autoCacheWanted(headers: Readonly<Record<string, string | string[] | undefined>>): boolean {
  const value = headers[AUTO_CACHE_HEADER];
  const text = Array.isArray(value) ? value.join(',') : value;
  return text?.trim().toLowerCase() !== 'off';
}
