/** The catalog file is unreadable or invalid. Raised at startup; the message names the source
 *  (MODELGATE_CATALOG=<path> or the shipped file) and the offending entry. */
export class CatalogError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'CatalogError';
  }
}
