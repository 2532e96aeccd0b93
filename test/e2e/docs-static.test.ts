// `make docs`: the static copy is complete and self-contained (relative references only, every one resolving to a
// file in the folder), and carries the emitted document unchanged.
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { STATIC_DOCS_FILES, writeStaticDocs } from '../../src/docs/write-static-docs.js';

const out = new URL(`../../.test-data/docs-static-${process.pid}/`, import.meta.url).pathname;
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe('writeStaticDocs', () => {
  it('writes the page, its scripts and the document, referenced relatively', () => {
    const dir = writeStaticDocs(out);
    expect(readdirSync(dir).sort()).toEqual([...STATIC_DOCS_FILES].sort());
    for (const name of ['openapi.json', 'openapi.yaml']) {
      expect(
        readFileSync(join(dir, name)).equals(readFileSync(new URL(`../../generated/${name}`, import.meta.url))),
      ).toBe(true);
    }
    const html = readFileSync(join(dir, 'index.html'), 'utf8');
    const refs = [...html.matchAll(/(?:src|href)="([^"]+)"/g)]
      .map((m) => m[1])
      .filter((ref) => !ref.startsWith('data:'));
    expect(refs.length).toBeGreaterThanOrEqual(3);
    for (const ref of refs) {
      expect(ref.startsWith('./'), ref).toBe(true);
      expect(existsSync(join(dir, ref)), ref).toBe(true);
    }
    const init = readFileSync(join(dir, 'init.js'), 'utf8');
    expect(init).toContain('"url":"./openapi.json"');
    // Published away from a gateway, the page keeps the document's servers instead of its own origin.
    expect(init).not.toContain('window.location.origin');
  });
});
