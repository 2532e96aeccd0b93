// The top-level request fields that are the gateway's own extensions of a door's protocol (OpenRouter's routing and
// accounting fields): the pipeline acts on them, and the native lane never sends them upstream, where the vendor
// would refuse them or, worse, route by them to models the catalog did not price. One list, the same for every door.
export const GATEWAY_ONLY_FIELDS: readonly string[] = ['models', 'provider', 'route', 'transforms', 'usage', 'plugins'];
