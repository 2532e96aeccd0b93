// `modelgate statusline` runs after every message of an agent, which gives up on it after a few seconds (Claude Code:
// 5): it must not load the gateway to print one line. What it loads is src/cli.ts's value imports (not type-only,
// not import()) and, as src/cli.ts imports a command only when it runs, src/cli/statusline.ts's.
import { readFileSync } from 'node:fs';
import { posix } from 'node:path';
import ts from 'typescript';
import { expect, it } from 'vitest';

/** The repository files `file` loads when it is evaluated: its static value imports and re-exports. */
function valueImports(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  const specifiers: string[] = [];
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement)) {
      const clause = statement.importClause;
      const bindings = clause?.namedBindings;
      const typeOnly =
        clause !== undefined &&
        (clause.isTypeOnly ||
          (clause.name === undefined &&
            bindings !== undefined &&
            ts.isNamedImports(bindings) &&
            bindings.elements.every((element) => element.isTypeOnly)));
      if (!typeOnly) specifiers.push((statement.moduleSpecifier as ts.StringLiteral).text);
    } else if (ts.isExportDeclaration(statement) && statement.moduleSpecifier && !statement.isTypeOnly) {
      specifiers.push((statement.moduleSpecifier as ts.StringLiteral).text);
    }
  }
  return specifiers
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => posix.normalize(posix.join(posix.dirname(file), specifier)).replace(/\.js$/, '.ts'));
}

function loaded(entries: string[]): Set<string> {
  const seen = new Set<string>();
  const queue = [...entries];
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    if (seen.has(file)) continue;
    seen.add(file);
    queue.push(...valueImports(file));
  }
  return seen;
}

// Small modules of heavy folders that the error printer needs (each imports nothing of its folder).
const LIGHT = new Set([
  'src/cli/statusline.ts',
  'src/cli/cli-errors.ts',
  'src/cli/parse-options.ts',
  'src/cli/closest-word.ts',
  'src/providers/provider-config-error.ts',
  'src/db/data-folder/data-folder-lock.ts',
]);
const HEAVY =
  /^src\/(cli|db|repositories|services|billing|pipeline|http|handlers|formats|routing|providers)\/|^src\/server\.ts$/;

it('`modelgate statusline` loads no other command, no database, server, provider or pipeline module', () => {
  const files = [...loaded(['src/cli.ts', 'src/cli/statusline.ts'])].sort();
  expect(files).toContain('src/config.ts');
  expect(files.filter((file) => HEAVY.test(file) && !LIGHT.has(file))).toEqual([]);
});
