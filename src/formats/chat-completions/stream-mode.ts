// Whether to answer with SSE. An explicit `stream` always wins. When it is omitted the spec's default is true,
// but clients written for OpenAI's format omit it when they want JSON; the official SDKs say so with
// `Accept: application/json`, so that header (without text/event-stream) selects JSON. Operators can flip the
// omitted-field default with MODELGATE_STREAM_DEFAULT=false.
export function wantsStream(
  requested: boolean | undefined,
  accept: string | undefined,
  streamDefault: boolean,
): boolean {
  if (typeof requested === 'boolean') return requested;
  const header = (accept ?? '').toLowerCase();
  if (header.includes('text/event-stream')) return true;
  if (header.includes('application/json')) return false;
  return streamDefault;
}
