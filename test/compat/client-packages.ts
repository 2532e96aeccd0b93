// Where the agent CLIs are: the compatibility kit (test/compat/package.json, its own lock) installs them into
// test/compat/node_modules, apart from the gateway's packages; `make test` and `make compatibility` install it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const KIT_DIR = fileURLToPath(new URL('.', import.meta.url));

/** The folder of the clients' executables (node_modules/.bin of the kit). */
export const CLIENT_BIN_DIR = join(KIT_DIR, 'node_modules/.bin');

/** The path of one client's executable, e.g. clientBinary('claude'). */
export function clientBinary(name: string): string {
  return join(CLIENT_BIN_DIR, name);
}

/** The installed version of a client's npm package, from its own package.json. */
export function clientPackageVersion(npmPackage: string): string {
  const manifest = JSON.parse(readFileSync(join(KIT_DIR, 'node_modules', npmPackage, 'package.json'), 'utf8')) as {
    version: string;
  };
  return manifest.version;
}
