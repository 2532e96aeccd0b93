// Builds the account page's assets once per process: the browser scripts (plain JavaScript in ./browser, no
// framework, no build tool) concatenated in order into one bundle inside a strict-mode IIFE, and the stylesheet.
// Both get a content fingerprint in their URL, so they can be cached for a year and a new version is a new URL.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// Order matters: later files call functions the earlier ones declare; main.js starts the page.
export const BROWSER_SCRIPTS = [
  'api-client.js',
  'dom.js',
  'organizations-section.js',
  'members-section.js',
  'invitations-section.js',
  'aliases-section.js',
  'presets-section.js',
  'budgets-section.js',
  'audit-section.js',
  'keys-section.js',
  'provider-keys-section.js',
  'stored-responses-section.js',
  'guardrails-section.js',
  'credits-section.js',
  'usage-chart.js',
  'pass-section.js',
  'main.js',
];

// tsc does not copy .js/.css sources: from dist/src/account the files are read from the repository's src/ instead.
const CANDIDATES = ['./browser/', '../../../src/account/browser/'];

export function browserAssetsDir(): string {
  for (const candidate of CANDIDATES) {
    const dir = fileURLToPath(new URL(candidate, import.meta.url));
    if (existsSync(join(dir, 'main.js'))) return dir;
  }
  throw new Error(`account page assets (src/account/browser/) not found from ${fileURLToPath(import.meta.url)}`);
}

export interface AccountAssets {
  script: { body: string; path: string };
  style: { body: string; path: string };
}

function fingerprint(body: string): string {
  return createHash('sha256').update(body).digest('hex').slice(0, 12);
}

export function buildAccountAssets(basePath: string): AccountAssets {
  const dir = browserAssetsDir();
  const parts = BROWSER_SCRIPTS.map((name) => `// ---- ${name}\n${readFileSync(join(dir, name), 'utf8')}`);
  const script = `(() => {\n'use strict';\n${parts.join('\n')}\n})();\n`;
  const style = readFileSync(join(dir, 'account.css'), 'utf8');
  return {
    script: { body: script, path: `${basePath}/assets/account.${fingerprint(script)}.js` },
    style: { body: style, path: `${basePath}/assets/account.${fingerprint(style)}.css` },
  };
}
