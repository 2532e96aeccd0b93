/** How a model is paid for: credits (debited per request), free (all prices zero) or pass (flat subscription,
 *  reference prices measured against quotas, never charged). The catalog assigns it; billing, records and every
 *  door's usage report it. */
export type AccessMode = 'credits' | 'free' | 'pass';
