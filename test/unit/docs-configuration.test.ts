// docs/configuration.md lists every environment variable the gateway reads (issue 36 §3): whatever src/ reads from an
// environment object (`env.X`, `env['X']`, `integer(env, 'X', …)`, `process.env.X`), every variable name it spells in
// a string (MODELGATE_*, OTEL_*, *_API_KEY, *_BASE_URL: names read through a constant or built per provider), and the
// key variable of every provider of the shipped catalog.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../../src/catalog/load-catalog.js';
import { loadProviderConfigs, providerEnvPrefix } from '../../src/providers/registry.js';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

const NAME = '[A-Z][A-Z0-9_]*[A-Z0-9]';
const READS = [
  new RegExp(`\\benv\\??\\.(${NAME})\\b`, 'g'),
  new RegExp(`\\benv\\[['"](${NAME})['"]\\]`, 'g'),
  new RegExp(`\\(\\s*env\\s*,\\s*['"](${NAME})['"]`, 'g'),
];
const SPELLED = /['"`]((?:MODELGATE|OTEL)_[A-Z0-9_]*[A-Z0-9]|[A-Z][A-Z0-9_]*_(?:API_KEY|BASE_URL))['"`]/g;

/** Comments name variables too, but only code reads them. */
const withoutComments = (text: string) =>
  text
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '')
    .replace(/\s\/\/ .*$/gm, '');

function variablesReadBySrc(): Map<string, string> {
  const found = new Map<string, string>();
  for (const file of sourceFiles('src')) {
    const code = withoutComments(readFileSync(file, 'utf8'));
    for (const pattern of [...READS, SPELLED])
      for (const m of code.matchAll(pattern)) if (!found.has(m[1])) found.set(m[1], file);
  }
  return found;
}

const documented = new Set(
  [...readFileSync('docs/configuration.md', 'utf8').matchAll(/`([^`]+)`/g)].flatMap(
    (m) => m[1].match(/[A-Z][A-Z0-9_]*[A-Z0-9]/g) ?? [],
  ),
);

describe('docs/configuration.md', () => {
  it('lists every environment variable src/ reads', () => {
    const read = variablesReadBySrc();
    // The scan finds the variables config.ts reads through its helpers and the ones read by name elsewhere.
    for (const known of [
      'PORT',
      'DATABASE_URL',
      'MODELGATE_PASS_QUOTA_5H',
      'MODELGATE_CATALOG',
      'OTEL_EXPORTER_OTLP_PROTOCOL',
      'GEMINI_API_KEY',
      'MODELGATE_API_KEY',
    ]) {
      expect(read.has(known), known).toBe(true);
    }
    const missing = [...read]
      .filter(([name]) => !documented.has(name))
      .map(([name, file]) => `${name} (read in ${file})`);
    expect(missing).toEqual([]);
  });

  it('names the key variable of every provider of the shipped catalog, and the pattern for others', () => {
    const providers = [
      ...loadCatalog({})
        .providers()
        .map((p) => p.id),
      'pass',
    ];
    expect(providers.map((id) => `${providerEnvPrefix(id)}_API_KEY`).filter((name) => !documented.has(name))).toEqual(
      [],
    );
    const text = readFileSync('docs/configuration.md', 'utf8');
    expect(text).toContain('`<PROVIDER>_API_KEY`');
    expect(text).toContain('`<PROVIDER>_BASE_URL`');
  });

  it("gives every provider's key variable, base URL variable and the default base URL the code uses", () => {
    const text = readFileSync('docs/configuration.md', 'utf8');
    const rows = new Map(
      [...text.matchAll(/^\| `([a-z0-9-]+)` +\| `([A-Z0-9_]+)`[^|]* +\| `([A-Z0-9_]+)` +\| `([^`]+)` +\|$/gm)].map(
        (m) => [m[1], { key: m[2], baseUrl: m[3], defaultUrl: m[4] }],
      ),
    );
    // What the gateway calls when no variable overrides it: the registry's own answer for an empty environment.
    const code = loadProviderConfigs({}, loadCatalog({}))
      .list()
      .map((p) => ({
        id: p.id,
        key: `${providerEnvPrefix(p.id)}_API_KEY`,
        baseUrl: `${providerEnvPrefix(p.id)}_BASE_URL`,
        defaultUrl: p.baseUrl,
      }));
    expect(code.length).toBeGreaterThan(5);
    expect(code.map((p) => ({ id: p.id, ...rows.get(p.id) }))).toEqual(code);
    expect([...rows.keys()].sort()).toEqual(code.map((p) => p.id).sort());
  });
});
