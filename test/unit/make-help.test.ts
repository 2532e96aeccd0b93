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
  // target → its description, continuation lines joined with a space.
  const listed = new Map<string, string>();
  let last = '';
  for (const line of output.split('\n')) {
    const m = /^ {2}([a-z][a-z0-9-]*) +(\S.*)$/.exec(line);
    if (m) {
      last = m[1];
      listed.set(last, m[2]);
    } else if (last && /^ {3,}\S/.test(line)) listed.set(last, `${listed.get(last)} ${line.trim()}`);
  }

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

  it('names the npm command each install target really runs (the recipe of its stamp)', () => {
    const recipes = makefile.split(/\n(?=\S)/);
    const ran = (block: string) => [...block.matchAll(/\$\(NPM\) ([a-z]+)/g)].map((m) => `npm ${m[1]}`);
    const installs = targets.filter((target) => target === 'install' || target.startsWith('install-'));
    expect(installs).toEqual(['install', 'install-test-kit', 'install-compat', 'install-bench']);
    for (const target of installs) {
      const stamp = new RegExp(`^${target}: (\\$\\([A-Z_]+\\))$`, 'm').exec(makefile)![1];
      const recipe = recipes.find((block) => block.startsWith(`${stamp}:`))!;
      const named = [...listed.get(target)!.matchAll(/\bnpm ([a-z]+)\b/g)].map((m) => `npm ${m[1]}`);
      expect(ran(recipe), target).toHaveLength(1);
      expect(named, target).toEqual(ran(recipe));
    }
  });
});
