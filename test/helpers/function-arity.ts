// The functions of the source tree that take more than three positional values, as the compiler reads them: function
// declarations and expressions, arrow functions, methods and constructors. A `this` parameter is not a value passed.
import { readFileSync } from 'node:fs';
import ts from 'typescript';

export interface WideFunction {
  /** `src/pipeline/x.ts:name` — the file and the function's name (or `<arrow>` at its line when it has none). */
  id: string;
  parameters: number;
}

function nameOf(node: ts.SignatureDeclaration, source: ts.SourceFile): string {
  if (ts.isConstructorDeclaration(node)) {
    const owner = node.parent;
    return `${ts.isClassLike(owner) && owner.name ? owner.name.text : '<class>'}.constructor`;
  }
  if (node.name && (ts.isIdentifier(node.name) || ts.isPrivateIdentifier(node.name) || ts.isStringLiteral(node.name))) {
    const owner = node.parent;
    const prefix = ts.isClassLike(owner) && owner.name ? `${owner.name.text}.` : '';
    return prefix + node.name.text;
  }
  const parent = node.parent;
  if (parent && ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  if (parent && ts.isPropertyAssignment(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
  return `<anonymous>@${line + 1}`;
}

/** Each function of `file` (repository-relative) with more than `most` positional parameters. */
export function wideFunctions(file: string, most = 3): WideFunction[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: WideFunction[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
      const values = node.parameters.filter((p) => !(ts.isIdentifier(p.name) && p.name.text === 'this'));
      if (values.length > most) found.push({ id: `${file}:${nameOf(node, source)}`, parameters: values.length });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}
