// Finds the files the docs routes serve: the emitted OpenAPI document (generated/) and the Swagger UI browser bundle
// and styles (node_modules). Read once, at startup, so a missing file fails the boot instead of a later request.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export type GeneratedFile = 'openapi.json' | 'openapi.yaml';

// This module runs from src/docs (tsx, tests) or dist/src/docs (built), so generated/ is two or three levels up.
// dist/generated holds only what tsc copied (the JSON, not the YAML): a folder counts only when it has both files.
const GENERATED_CANDIDATES = ['../../generated/', '../../../generated/'];
const FILES: GeneratedFile[] = ['openapi.json', 'openapi.yaml'];

export function generatedDir(): string {
  for (const candidate of GENERATED_CANDIDATES) {
    const dir = fileURLToPath(new URL(candidate, import.meta.url));
    if (FILES.every((name) => existsSync(join(dir, name)))) return dir;
  }
  throw new Error(`generated/openapi.{json,yaml} not found above ${fileURLToPath(import.meta.url)}: run make generate`);
}

export function generatedFilePath(name: GeneratedFile): string {
  return join(generatedDir(), name);
}

export function readGeneratedFile(name: GeneratedFile): Buffer {
  return readFileSync(generatedFilePath(name));
}

export type RendererFile = 'bundle' | 'styles';

// swagger-ui-dist ships its prebuilt browser files and nothing else to install: the renderer with React and its
// libraries in one script, and one stylesheet.
const RENDERER_FILES: Record<RendererFile, string> = {
  bundle: 'swagger-ui-dist/swagger-ui-bundle.js',
  styles: 'swagger-ui-dist/swagger-ui.css',
};

export function rendererFilePath(file: RendererFile): string {
  return createRequire(import.meta.url).resolve(RENDERER_FILES[file]);
}

export function readRendererFile(file: RendererFile): Buffer {
  return readFileSync(rendererFilePath(file));
}
