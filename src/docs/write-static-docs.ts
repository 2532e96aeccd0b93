// `make docs`: writes the API reference as a static folder (default dist/docs/) for publishing on any static host:
// index.html, the Swagger UI bundle and stylesheet, the init script and the OpenAPI document (JSON and YAML). Every
// reference is relative, so the folder works under any path prefix and offline. Usage: tsx
// src/docs/write-static-docs.ts [OUT_DIR]
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { generatedFilePath, rendererFilePath } from './asset-files.js';
import { renderDocsInit, renderDocsPage } from './docs-page.js';

export const STATIC_DOCS_FILES = [
  'index.html',
  'init.js',
  'api-reference.js',
  'api-reference.css',
  'openapi.json',
  'openapi.yaml',
] as const;

export function writeStaticDocs(outDir: string): string {
  const dir = resolve(outDir);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'index.html'),
    renderDocsPage({
      specUrl: './openapi.json',
      bundleUrl: './api-reference.js',
      stylesUrl: './api-reference.css',
      initUrl: './init.js',
      title: 'Modelgate API reference',
    }),
  );
  // The static copy keeps the document's own server list: it may be published far from any gateway.
  writeFileSync(join(dir, 'init.js'), renderDocsInit({ specUrl: './openapi.json', sameOriginServer: false }));
  copyFileSync(rendererFilePath('bundle'), join(dir, 'api-reference.js'));
  copyFileSync(rendererFilePath('styles'), join(dir, 'api-reference.css'));
  copyFileSync(generatedFilePath('openapi.json'), join(dir, 'openapi.json'));
  copyFileSync(generatedFilePath('openapi.yaml'), join(dir, 'openapi.yaml'));
  return dir;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const root = fileURLToPath(new URL('../../', import.meta.url));
  const dir = writeStaticDocs(process.argv[2] ?? join(root, 'dist/docs'));
  console.log(`docs: wrote ${STATIC_DOCS_FILES.join(', ')} to ${dir}`);
}
