// One page of a stored response's input items, cut as OpenAI's lists are: in `order` (newest first by default), after
// or before an item id, `limit` items. An id that names no item of the list gives an empty page.

export interface ItemPageQuery {
  after?: string;
  before?: string;
  limit: number;
  order: 'asc' | 'desc';
}

export interface ItemPage {
  object: 'list';
  data: unknown[];
  first_id: string | null;
  last_id: string | null;
  /** More items follow the page in `order` (with `before`: more precede it). */
  has_more: boolean;
}

const idOf = (item: unknown) => (item as { id?: unknown }).id;

/** `items`: oldest first, each with an `id`. */
export function inputItemPage(items: readonly unknown[], query: ItemPageQuery): ItemPage {
  const ordered = query.order === 'asc' ? items : [...items].reverse();
  let start = 0;
  let end = ordered.length;
  if (query.after !== undefined) {
    const at = ordered.findIndex((item) => idOf(item) === query.after);
    start = at < 0 ? ordered.length : at + 1;
  }
  if (query.before !== undefined) {
    const at = ordered.findIndex((item) => idOf(item) === query.before);
    end = Math.max(at, 0);
  }
  const window = ordered.slice(start, Math.max(start, end));
  // With `before` (and no `after`) the page is the items nearest the cursor, as a "previous page" is.
  const fromEnd = query.before !== undefined && query.after === undefined;
  const data = fromEnd ? window.slice(Math.max(0, window.length - query.limit)) : window.slice(0, query.limit);
  const first = data[0];
  const last = data[data.length - 1];
  return {
    object: 'list',
    data,
    first_id: first === undefined ? null : String(idOf(first)),
    last_id: last === undefined ? null : String(idOf(last)),
    has_more: data.length < window.length,
  };
}
