// `make sdk`: builds the client SDK into a self-contained package folder (default dist/sdk/):
//   package.json   from src/sdk/package.template.json, with the gateway's version and the openapi-fetch range
//   src/           the TypeScript sources; src/openapi-types.ts is generated/openapi-types.ts itself
//                  (openapi-typescript output, made from the OpenAPI document by make generate)
//   dist/          compiled ES modules, .d.ts declarations and source maps
//   openapi.json   the document the types were generated from
//   README.md, LICENSE (the gateway's own: Apache-2.0)
// Usage: tsx src/sdk/build/build-package.ts [OUT_DIR]
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const sdkDir = join(root, 'src/sdk');
const TYPES_FILE = 'openapi-types.ts';

// Environment-neutral settings: the package runs in Node 20+ and in browsers, so it gets DOM types (fetch,
// ReadableStream) and no Node types.
const COMPILER_OPTIONS = {
  target: 'ES2022',
  module: 'NodeNext',
  moduleResolution: 'NodeNext',
  lib: ['ES2022', 'DOM', 'DOM.Iterable'],
  types: [],
  strict: true,
  declaration: true,
  declarationMap: true,
  sourceMap: true,
  skipLibCheck: true,
  rootDir: 'src',
  outDir: 'dist',
};

export interface BuiltPackage {
  dir: string;
  packageJson: Record<string, unknown>;
}

export function buildSdkPackage(outDir: string): BuiltPackage {
  const dir = resolve(outDir);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'src'), { recursive: true });

  // Sources: everything in src/sdk/lib except the in-repo re-export, replaced by the generated types themselves.
  for (const file of readdirSync(join(sdkDir, 'lib'))) {
    if (file.endsWith('.ts') && file !== TYPES_FILE) copyFileSync(join(sdkDir, 'lib', file), join(dir, 'src', file));
  }
  copyFileSync(join(root, 'generated', TYPES_FILE), join(dir, 'src', TYPES_FILE));
  copyFileSync(join(root, 'generated/openapi.json'), join(dir, 'openapi.json'));
  copyFileSync(join(sdkDir, 'README.md'), join(dir, 'README.md'));
  copyFileSync(join(root, 'LICENSE'), join(dir, 'LICENSE'));

  const rootPackage = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const packageJson = JSON.parse(readFileSync(join(sdkDir, 'package.template.json'), 'utf8'));
  packageJson.version = rootPackage.version;
  packageJson.dependencies['openapi-fetch'] =
    rootPackage.devDependencies['openapi-fetch'] ?? rootPackage.dependencies['openapi-fetch'];
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(packageJson, null, 2)}\n`);

  // The compiler config lives in the package folder (not in "files", so not published): module resolution of
  // openapi-fetch walks up from there to this repository's node_modules.
  writeFileSync(
    join(dir, 'tsconfig.json'),
    `${JSON.stringify({ compilerOptions: COMPILER_OPTIONS, include: ['src/**/*.ts'] }, null, 2)}\n`,
  );
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  try {
    execFileSync(process.execPath, [tsc, '-p', join(dir, 'tsconfig.json')], { stdio: 'pipe' });
  } catch (err) {
    const output = `${(err as { stdout?: Buffer }).stdout ?? ''}${(err as { stderr?: Buffer }).stderr ?? ''}`;
    throw new Error(`sdk: TypeScript compilation failed\n${output}`);
  }
  return { dir, packageJson };
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const built = buildSdkPackage(process.argv[2] ?? join(root, 'dist/sdk'));
  console.log(`sdk: wrote ${built.packageJson.name}@${built.packageJson.version} to ${built.dir}`);
}
