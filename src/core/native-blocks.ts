// A front door whose format is a provider's own (Messages → Anthropic) may attach the client's original block to the
// internal content part(s) made of it, so that provider's adapter sends the block unchanged (an Anthropic `document`
// keeps its title, context, citations and source kind, which the chat-format parts cannot hold); every other adapter
// reads the ordinary part. The key is a Symbol: it survives in-process hand-offs, but no JSON client can set it, so
// the chat door cannot smuggle raw vendor blocks upstream, and it never reaches logs or records.

/** Key of the original Anthropic block on an internal part. */
const ANTHROPIC_BLOCK = Symbol('modelgate.anthropicBlock');

/**
 * Marks `part` as standing for `block`, or, with `null`, as covered by a block already attached to an earlier part of
 * the same message (a document made of several parts is sent once).
 */
export function attachAnthropicBlock<T extends object>(part: T, block: object | null): T {
  Object.defineProperty(part, ANTHROPIC_BLOCK, { value: block, enumerable: false });
  return part;
}

/** The original block of a part: the block, `null` (covered by an earlier part), or undefined (none attached). */
export function anthropicBlockOf(part: unknown): object | null | undefined {
  if (typeof part !== 'object' || part === null) return undefined;
  return (part as { [ANTHROPIC_BLOCK]?: object | null })[ANTHROPIC_BLOCK];
}
