// The `modelgate` command the spawned-process tests run: the CLI compiled to dist/, as operators run it (`make run`).
// Loading src/ through tsx costs each spawned process over a second more CPU, and the suite spawns well over a hundred.
// The global setup compiles it as `make build` does, only when a source is newer than the last build.
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The arguments to `node` that run the CLI; a command's own arguments follow. */
export const CLI_ENTRY = ['dist/src/cli.js'];

const BUILD_INFO = 'dist/tsconfig.build.tsbuildinfo';
const SOURCES = ['src', 'generated', 'bench', 'package.json', 'tsconfig.json', 'tsconfig.build.json'];

export function ensureBuiltCli(): void {
  const built = statSync(BUILD_INFO, { throwIfNoEntry: false })?.mtimeMs ?? 0;
  if (built > 0 && SOURCES.every((source) => newestChange(source) < built)) return;
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json', '--incremental'], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
}

function newestChange(path: string): number {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path))
    if (entry !== 'node_modules') newest = Math.max(newest, newestChange(join(path, entry)));
  return newest;
}
