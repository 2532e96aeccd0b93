// The bench's own packages (autocannon, Portkey) are the bench kit (bench/package.json, its own lock), installed into
// bench/node_modules by the `make bench*` targets, never with the gateway. Compiled bench code runs from dist/bench/
// or a snapshot of it, where Node would look for them in the gateway's node_modules, so they are found by path.
import { createRequire } from 'node:module';
import path from 'node:path';

/** The repository the bench runs from: BENCH_REPO_ROOT (run.sh sets it), else the working directory. */
export function benchRepoRoot(): string {
  return path.resolve(process.env.BENCH_REPO_ROOT ?? process.cwd());
}

/** require() as seen from bench/package.json: resolves the bench kit's packages. */
export function requireFromBenchKit(repoRoot: string = benchRepoRoot()): NodeJS.Require {
  return createRequire(path.join(repoRoot, 'bench/package.json'));
}

/** The path of a file inside one of the bench kit's packages, e.g. Portkey's start script. */
export function benchKitFile(repoRoot: string, packageName: string, file: string): string {
  return path.join(repoRoot, 'bench/node_modules', packageName, file);
}
