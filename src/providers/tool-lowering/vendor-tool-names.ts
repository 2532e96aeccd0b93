// Tool names as a vendor takes them. A namespaced tool (Codex's `multi_agent_v1` members, `additional_tools`
// namespaces) is flattened into one function name, `<namespace>__<name>`; a name the vendor's rules refuse (a
// character it does not allow, too long, a bad first character) is cleaned and gets a short hash of the original
// identity, so two different tools never share a vendor name and the same tool gets the same name on every request
// (the model's earlier calls replay under the name it saw). The table maps both ways: the vendor's name of a call
// back to the client's `{name, namespace}`.
import { createHash } from 'node:crypto';

/** A vendor's rules for function names. */
export interface ToolNameRule {
  /** Longest name the vendor accepts. */
  maxLength: number;
  /** Matches every character the vendor does not allow (global). */
  invalid: RegExp;
  /** The first character must match (Gemini: a letter or an underscore). */
  start?: RegExp;
}

/** Anthropic: `^[a-zA-Z0-9_-]{1,128}$`. */
export const ANTHROPIC_TOOL_NAMES: ToolNameRule = { maxLength: 128, invalid: /[^a-zA-Z0-9_-]/g };
/** OpenAI chat completions (and the vendors that copy it): `^[a-zA-Z0-9_-]{1,64}$`. */
export const CHAT_TOOL_NAMES: ToolNameRule = { maxLength: 64, invalid: /[^a-zA-Z0-9_-]/g };
/** Gemini FunctionDeclaration.name: starts with a letter or an underscore; letters, digits, `_`, `.`, `-`; ≤ 64. */
export const GEMINI_TOOL_NAMES: ToolNameRule = { maxLength: 64, invalid: /[^a-zA-Z0-9_.-]/g, start: /^[a-zA-Z_]/ };

/** How the client named a tool, and what kind it is (a custom tool is offered as a function of one string). */
export interface ClientToolName {
  name: string;
  namespace?: string;
  kind: 'function' | 'custom' | 'tool_search';
}

const SEPARATOR = '__';
const HASH_LENGTH = 8;

function identity(name: string, namespace: string | undefined): string {
  return `${namespace ?? ''}\u0000${name}`;
}

function hashOf(name: string, namespace: string | undefined): string {
  return createHash('sha256').update(identity(name, namespace)).digest('hex').slice(0, HASH_LENGTH);
}

/** The name the vendor sees for a tool, by the rule alone; `hashed` forces the hash suffix (a collision). */
export function vendorToolName(
  name: string,
  namespace: string | undefined,
  rule: ToolNameRule,
  hashed = false,
): string {
  const joined = namespace === undefined ? name : `${namespace}${SEPARATOR}${name}`;
  let clean = joined.replace(rule.invalid, '_');
  if (rule.start && !rule.start.test(clean)) clean = `_${clean}`;
  if (!hashed && clean === joined && clean.length > 0 && clean.length <= rule.maxLength) return clean;
  const suffix = `_${hashOf(name, namespace)}`;
  return `${clean.slice(0, rule.maxLength - suffix.length)}${suffix}`;
}

/** The client's tools under the vendor's names, both ways. */
export class ToolNameTable {
  private readonly byVendor = new Map<string, ClientToolName>();
  private readonly byClient = new Map<string, string>();

  constructor(private readonly rule: ToolNameRule) {}

  /** Declares a tool; returns its vendor name (hash-suffixed when another tool already took the plain one). */
  declare(tool: ClientToolName): string {
    const key = identity(tool.name, tool.namespace);
    const known = this.byClient.get(key);
    if (known !== undefined) return known;
    let vendor = vendorToolName(tool.name, tool.namespace, this.rule);
    if (this.byVendor.has(vendor)) vendor = vendorToolName(tool.name, tool.namespace, this.rule, true);
    this.byVendor.set(vendor, tool);
    this.byClient.set(key, vendor);
    return vendor;
  }

  /** The vendor name of a declared tool, or (a call of a tool no longer declared) the rule's name for it. */
  forward(name: string, namespace?: string): string {
    return this.byClient.get(identity(name, namespace)) ?? vendorToolName(name, namespace, this.rule);
  }

  /** The client's tool behind a vendor name, or undefined when the vendor name is no declared tool's. */
  reverse(vendorName: string): ClientToolName | undefined {
    return this.byVendor.get(vendorName);
  }

  /** True when some declared tool is not a plain function under its own name (nothing to restore otherwise). */
  get renames(): boolean {
    for (const [vendor, tool] of this.byVendor) {
      if (tool.kind !== 'function' || tool.namespace !== undefined || vendor !== tool.name) return true;
    }
    return false;
  }
}
