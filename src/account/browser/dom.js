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
  for (const child of children.flat()) if (child) node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  return node;
}

const byId = (id) => document.getElementById(id);

function usd(value, digits) {
  if (value === null || value === undefined) return '—';
  const places = digits !== undefined ? digits : Math.abs(value) >= 1 ? 2 : value === 0 ? 2 : 6;
  return `$${Number(value).toFixed(places)}`;
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
