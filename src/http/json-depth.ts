// How deep a parsed JSON body nests. JSON.parse itself copes with any depth, but everything after it recurses: schema
// validation, JSON.stringify (the token estimate, the upstream body), schema conversion. A body nested 100,000 deep
// overflowed the stack there and answered 500; the body reader refuses it with 400 instead
// (docs/limits-and-hardening.md).

/**
 * Deepest nesting a request body may have. Real payloads stay far below it: an MCP tool schema ~20 schema levels
 * deep is ~45 JSON levels once inside `tools[].function.parameters.properties...` (two JSON levels per schema level).
 */
export const MAX_JSON_DEPTH = 128;

/** What one walk of a parsed body learns: whether it nests too deep, and how many object members it holds. */
export interface JsonShape {
  tooDeep: boolean;
  /** Keys over all objects (counted only up to the first node too deep): compared with json-member-names.ts' count. */
  members: number;
}

/** True when `value` nests objects or arrays deeper than `limit` (the body itself is depth 1). */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  return jsonShape(value, limit).tooDeep;
}

/**
 * Walks `value` once: nesting past `limit`, and the member count. Iterative, with an explicit stack, so it cannot
 * overflow on the very input it guards against; it stops at the first node too deep. Index loops over arrays and
 * `for...in` over parsed objects (no inherited keys) allocate nothing per node, unlike Object.values.
 */
export function jsonShape(value: unknown, limit: number): JsonShape {
  if (typeof value !== 'object' || value === null) return { tooDeep: false, members: 0 };
  if (limit < 1) return { tooDeep: true, members: 0 };
  let members = 0;
  const nodes: object[] = [value];
  const depths: number[] = [1];
  while (nodes.length > 0) {
    const node = nodes.pop()!;
    const childDepth = depths.pop()! + 1;
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const child: unknown = node[i];
        if (typeof child !== 'object' || child === null) continue;
        if (childDepth > limit) return { tooDeep: true, members };
        nodes.push(child);
        depths.push(childDepth);
      }
      continue;
    }
    for (const key in node) {
      members++;
      const child = (node as Record<string, unknown>)[key];
      if (typeof child !== 'object' || child === null) continue;
      if (childDepth > limit) return { tooDeep: true, members };
      nodes.push(child);
      depths.push(childDepth);
    }
  }
  return { tooDeep: false, members };
}
