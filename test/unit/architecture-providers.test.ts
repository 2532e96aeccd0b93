// A provider is a module: everything a vendor brings comes in through its bundle (providers/bundles.ts), so the layers
// that compose a request import no vendor's folder and name no provider kind. Allowed below providers/ are its own
// files (the interfaces, the bundle list, the registry) and the two folders no vendor owns: native/ (the native
// lane's contract) and sse/ (the event-stream parser).
import { readFileSync } from 'node:fs';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { PROVIDER_KINDS } from '../../src/core/provider-kind.js';
import { readImportGraph } from '../helpers/import-graph.js';

const graph = readImportGraph(process.cwd(), ['src']);
const COMPOSING = ['src/pipeline/', 'src/routing/', 'src/billing/', 'src/http/', 'src/handlers/', 'src/server.ts'];
const SHARED_PROVIDER_FOLDERS = ['src/providers/native/', 'src/providers/sse/'];

// The handlers are left out of the literal check: a door's handler names its protocol, and "gemini" is a door too.
const KIND_FREE = ['src/pipeline/', 'src/routing/', 'src/billing/', 'src/http/', 'src/server.ts'];

const within = (places: readonly string[]) => (file: string) =>
  places.some((place) => (place.endsWith('/') ? file.startsWith(place) : file === place));

/** An import of a file inside a provider's own folder (providers/<vendor>/...). */
function intoVendorFolder(to: string): boolean {
  if (!to.startsWith('src/providers/')) return false;
  const inside = to.slice('src/providers/'.length);
  return inside.includes('/') && !SHARED_PROVIDER_FOLDERS.some((folder) => to.startsWith(folder));
}

/** The string literals of a file's code (comments are prose and may name a vendor). */
function stringLiterals(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) found.push(node.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('architecture: a provider is a module', () => {
  it('reads the composing layers', () => {
    expect(graph.files.filter((file) => file.startsWith('src/pipeline/')).length).toBeGreaterThan(20);
  });

  it('the pipeline, routing, billing, the HTTP layer, the handlers and server.ts import no provider folder', () => {
    const imports = graph.files
      .filter(within(COMPOSING))
      .flatMap((from) => (graph.imports.get(from) ?? []).filter(intoVendorFolder).map((to) => `${from} -> ${to}`));
    expect(imports).toEqual([]);
  });

  it('the pipeline imports of providers/ only its interfaces, the bundle list and the registry', () => {
    const imported = graph.files
      .filter((file) => file.startsWith('src/pipeline/'))
      .flatMap((from) => graph.imports.get(from) ?? [])
      .filter((to) => to.startsWith('src/providers/'));
    expect(imported.length).toBeGreaterThan(0);
    expect(imported.filter(intoVendorFolder)).toEqual([]);
  });

  it('the pipeline, routing, billing, the HTTP layer and server.ts name no provider kind', () => {
    const kinds = new Set<string>(PROVIDER_KINDS);
    const named = graph.files.filter(within(KIND_FREE)).flatMap((file) =>
      stringLiterals(file)
        .filter((text) => kinds.has(text))
        .map((text) => `${file}: '${text}'`),
    );
    expect(named).toEqual([]);
  });

  it('the provider registry imports nothing of pass/', () => {
    const imports = graph.imports.get('src/providers/registry.ts') ?? [];
    expect(imports.length).toBeGreaterThan(0);
    expect(imports.filter((to) => to.startsWith('src/pass/'))).toEqual([]);
  });
});
