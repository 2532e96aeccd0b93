// Tiny DOM and formatting helpers: elements are built with textContent only (never innerHTML), so nothing the API
// returns can inject markup.
function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === false || value === undefined || value === null) continue;
    if (name.startsWith('on')) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

const SVG_NS = 'http://www.w3.org/2000/svg';
function svg(tag, attrs, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attrs || {})) node.setAttribute(name, String(value));
  for (const child of children.flat())
    if (child) node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  return node;
}

const byId = (id) => document.getElementById(id);

/**
 * Money, in one format everywhere on the page: US dollars with four decimals and thousands separators ($1,234.5000,
 * -$0.2500). Four decimals show a hundredth of a cent, what a typical request costs; an amount that is not zero but
 * would read $0.0000 reads <$0.0001, so a cheap request never looks free.
 */
function usd(value) {
  if (value === null || value === undefined) return '—';
  const amount = Number(value);
  const sign = amount < 0 ? '-' : '';
  if (amount !== 0 && Math.abs(amount) < 0.00005) return `${sign}<$0.0001`;
  return `${sign}$${Math.abs(amount).toLocaleString('en-US', { minimumFractionDigits: 4, maximumFractionDigits: 4 })}`;
}

function when(iso) {
  if (!iso) return 'never';
  const date = new Date(iso);
  return `${date.toISOString().slice(0, 10)} ${date.toISOString().slice(11, 16)} UTC`;
}

const integer = (n) => Number(n).toLocaleString('en-US');

/** Shows a message in the page's alert region (role=alert, so screen readers announce it). */
function showError(message) {
  const box = byId('error');
  box.textContent = message;
  box.hidden = !message;
}

function announce(message) {
  byId('status').textContent = message;
}
