// Loads the model catalog once at startup: the file named by MODELGATE_CATALOG when set, otherwise
// the catalog shipped with the code. The JSON import makes tsc copy catalog.json into dist/.
import { readFileSync } from 'node:fs';
import shipped from './catalog.json' with { type: 'json' };
import { CatalogError } from './catalog-error.js';
import { Catalog } from './catalog.js';
import { parseCatalog } from './parse-catalog.js';
import type { CatalogData } from './types.js';

export const CATALOG_ENV = 'MODELGATE_CATALOG';
const SHIPPED_SOURCE = 'shipped catalog (src/catalog/catalog.json)';

/** Reads and validates a catalog JSON file; errors name the variable and the path. */
export function loadCatalogFile(path: string): CatalogData {
  const source = `${CATALOG_ENV}=${path}`;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new CatalogError(`${source}: cannot read file (${(err as NodeJS.ErrnoException).code ?? String(err)})`, {
      cause: err,
    });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new CatalogError(`${source}: not valid JSON (${(err as Error).message})`, { cause: err });
  }
  return parseCatalog(json, source);
}

/** The validated catalog data: MODELGATE_CATALOG's file when set (non-empty), else the shipped one. */
export function loadCatalogData(env: NodeJS.ProcessEnv = process.env): CatalogData {
  const override = env[CATALOG_ENV]?.trim();
  return override ? loadCatalogFile(override) : parseCatalog(shipped, SHIPPED_SOURCE);
}

/** Convenience for startup: load and wrap in the lookup class. */
export function loadCatalog(env: NodeJS.ProcessEnv = process.env): Catalog {
  return new Catalog(loadCatalogData(env));
}
