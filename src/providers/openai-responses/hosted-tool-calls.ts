// OpenAI's hosted tools billed per use besides web search (core/tool-uses.ts), read from a Response's output items as
// the usage object does not count them:
//   file_search       one `file_search_call` item per call, billed per call;
//   code_interpreter  `code_interpreter_call` items name the container they ran in (`container_id`); OpenAI bills a
//                     container when it is created, by its size, so each container once, times the GB the request's
//                     tool asked for, except a container the request named or an earlier turn ran in (created, and
//                     billed, before: ToolBilling.knownContainers).
// One tracker per answer: a stream shows the items as they come (response.output_item.added/done) and again in the
// final Response; each call and container counts once.
import type { ToolBilling, ToolUses } from '../../core/tool-uses.js';
import { isRecord, readString } from '../payload-readers.js';

export class HostedToolCalls {
  private readonly fileSearchIds = new Set<string>();
  private unnamedFileSearches = 0;
  private readonly containers = new Set<string>();
  private interpreterWithoutContainer = false;
  private readonly known: ReadonlySet<string>;

  constructor(private readonly billing: ToolBilling = {}) {
    this.known = new Set(billing.knownContainers ?? []);
  }

  /**
   * Reads one output item; `counted`: an item without an id is counted (a whole Response's items are each seen once;
   * a stream's events are only counted by id, its final Response counts the rest). True when the uses changed.
   */
  observe(item: unknown, counted = true): boolean {
    if (!isRecord(item)) return false;
    const id = readString(item.id);
    if (item.type === 'file_search_call') {
      if (id) {
        if (this.fileSearchIds.has(id)) return false;
        this.fileSearchIds.add(id);
        return true;
      }
      if (counted) this.unnamedFileSearches += 1;
      return counted;
    }
    if (item.type === 'code_interpreter_call') {
      const container = readString(item.container_id);
      if (container === undefined) {
        const changed = !this.interpreterWithoutContainer;
        this.interpreterWithoutContainer = true;
        return changed;
      }
      if (this.known.has(container) || this.containers.has(container)) return false;
      this.containers.add(container);
      return true;
    }
    return false;
  }

  /** The uses seen so far, or undefined when none. */
  uses(): ToolUses | undefined {
    const uses: ToolUses = {};
    const searches = this.fileSearchIds.size + this.unnamedFileSearches;
    if (searches > 0) uses.file_search = searches;
    // A call that names no container ran in one: a new one unless the request brought its own.
    const created =
      this.containers.size +
      (this.interpreterWithoutContainer && this.containers.size === 0 && this.known.size === 0 ? 1 : 0);
    if (created > 0) uses.code_interpreter = created * (this.billing.containerGb ?? 1);
    return Object.keys(uses).length > 0 ? uses : undefined;
  }
}
