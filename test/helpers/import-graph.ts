// The import graph of the source tree as the compiler reads it (static imports and re-exports, `import type`,
// `import('...')` in code and in type positions), between files of the repository: package imports are kept apart.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, posix, relative } from 'node:path';
import ts from 'typescript';

export interface ImportGraph {
  /** Repository-relative path of every source file read, e.g. `src/pipeline/serve-generation.ts`. */
  files: string[];
  /** file → the repository files it imports (resolved: `./x.js` names `x.ts`). */
  imports: Map<string, string[]>;
  /** file → the package specifiers it imports (`koa`, `@koa/router`, `node:fs`). */
  packages: Map<string, string[]>;
}

const SOURCE = /\.(ts|js)$/;

function listSources(root: string, dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const path = posix.join(dir, name);
    // A folder's own packages (bench/node_modules, the bench kit) are not the repository's source.
    if (statSync(join(root, path)).isDirectory()) return name === 'node_modules' ? [] : listSources(root, path);
    return SOURCE.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** `./x.js` as TypeScript resolves it under NodeNext: the `.ts` file when it exists, else the file as named. */
function resolveRelative(root: string, from: string, specifier: string): string {
  const path = posix.normalize(posix.join(posix.dirname(from), specifier));
  const asTs = path.replace(/\.js$/, '.ts');
  if (asTs !== path && existsSync(join(root, asTs))) return asTs;
  if (existsSync(join(root, path))) return path;
  if (existsSync(join(root, `${path}.ts`))) return `${path}.ts`;
  return path;
}

export function readImportGraph(root: string, dirs: readonly string[] = ['src']): ImportGraph {
  const files = dirs.flatMap((dir) => listSources(root, dir)).sort();
  const imports = new Map<string, string[]>();
  const packages = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(join(root, file), 'utf8');
    const named = ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName);
    imports.set(
      file,
      named
        .filter((s) => s.startsWith('.'))
        .map((s) =>
          relative(root, join(root, resolveRelative(root, file, s)))
            .split('\\')
            .join('/'),
        ),
    );
    packages.set(
      file,
      named.filter((s) => !s.startsWith('.')),
    );
  }
  return { files, imports, packages };
}

/** Every file `from` imports, directly or through others, each with the chain of imports that reaches it. */
export function reachable(graph: ImportGraph, from: string): Map<string, string[]> {
  const chains = new Map<string, string[]>([[from, [from]]]);
  const queue = [from];
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    for (const target of graph.imports.get(file) ?? []) {
      if (chains.has(target) || !graph.imports.has(target)) continue;
      chains.set(target, [...chains.get(file)!, target]);
      queue.push(target);
    }
  }
  return chains;
}

/** The import circles: every strongly connected set of more than one file, or a file that imports itself (Tarjan). */
export function importCircles(graph: ImportGraph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  let next = 0;
  const visit = (file: string) => {
    index.set(file, next);
    low.set(file, next);
    next++;
    stack.push(file);
    onStack.add(file);
    for (const target of graph.imports.get(file) ?? []) {
      if (!graph.imports.has(target)) continue;
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file)!, index.get(target)!));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const members: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      members.push(member);
    } while (member !== file);
    if (members.length > 1 || graph.imports.get(file)!.includes(file)) circles.push(members.sort());
  };
  for (const file of graph.files) if (!index.has(file)) visit(file);
  return circles;
}
