// Hints the gateway prints (log lines, CLI messages, HTTP error messages, the account page) name commands that run
// as written from a checkout: `npx modelgate …`, never a bare `modelgate …`, which is not on PATH there.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const COMMANDS = [
  'serve',
  'migrate',
  'users',
  'keys',
  'tokens',
  'credits',
  'pass',
  'admin-keys',
  'generations',
  'conformance',
];
const BARE = new RegExp(`(?<!npx )\\bmodelgate (?:${COMMANDS.join('|')})(?=[ \`'"]|$)`);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|js)$/.test(name) ? [path] : [];
  });
}

describe('command hints in src/', () => {
  it('no string outside comments names a bare `modelgate <command>`', () => {
    const offending: string[] = [];
    for (const file of sourceFiles('src')) {
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (/^\s*(\/\/|\*|\/\*)/.test(line)) return;
          if (BARE.test(line)) offending.push(`${file}:${i + 1}: ${line.trim()}`);
        });
    }
    expect(offending).toEqual([]);
  });
});
