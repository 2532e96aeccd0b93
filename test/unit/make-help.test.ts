// `make help` lists every target of the Makefile with its `##` description, so a target added without one shows up
// here as missing.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const makefile = readFileSync('Makefile', 'utf8');
// Rule lines `name: ...`, not variable assignments (`NAME := ...`) or pattern/file rules (`$(STAMP): ...`).
const targets = [...makefile.matchAll(/^([a-z][a-z0-9-]*):(?!=)/gm)].map((m) => m[1]);

describe('make help', () => {
  const output = execFileSync('make', ['-s', 'help'], { encoding: 'utf8' });
  const listed = new Map(
    output.split('\n').flatMap((line) => {
      const m = /^ {2}([a-z][a-z0-9-]*) +(\S.*)$/.exec(line);
      return m ? [[m[1], m[2]] as const] : [];
    }),
  );

  it('lists every target with a description', () => {
    expect(targets.length).toBeGreaterThan(10);
    expect([...listed.keys()].sort()).toEqual([...targets].sort());
  });

  it('shows the comment written above each target, continuation lines included', () => {
    expect(listed.get('run')).toMatch(/^Start the gateway on the embedded database/);
    expect(listed.get('test')).toMatch(/^The whole suite/);
    expect(listed.get('generate')).toMatch(/^Regenerate generated\//);
    // The schemathesis block has variable assignments between its comment and its target line.
    expect(listed.get('schemathesis')).toMatch(/^Optional, not run in CI/);
    expect(output).toContain('MODELGATE_API_KEY=mg-v1-... make schemathesis');
  });

  it('names the npm command each target really runs (install: the stamp\'s recipe)', () => {
    const recipes = makefile.split(/\n(?=\S)/);
    const ran = (commandOf: string) => [...commandOf.matchAll(/\$\(NPM\) ([a-z]+)/g)].map((m) => `npm ${m[1]}`);
    const installRecipe = recipes.find((block) => block.startsWith('$(NODE_MODULES_STAMP):'))!;
    expect(ran(installRecipe)).toEqual(['npm install']);
    const text = [...listed.entries()].map(([target, description]) => ({ target, named: [...description.matchAll(/\bnpm ([a-z]+)\b/g)].map((m) => `npm ${m[1]}`) }));
    expect(text.find((t) => t.target === 'install')!.named).toEqual(['npm install']);
  });
});
