// Everything README.md and docs/ tell a reader to type works as written (issue 36 §3): every `<provider>/<model>` id
// in code resolves in the shipped catalog, every `make <target>` exists, every `npx modelgate <command> [sub]
// [--options]` is a real command with those options, no bare `modelgate <command>` (not on PATH in a checkout), and
// every relative link and #anchor points to something that exists. The README stays a first read: ≤ 250 lines.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../../src/catalog/load-catalog.js';
import { runCli } from '../../src/cli.js';
import openapi from '../../generated/openapi.json' with { type: 'json' };

function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return markdownFiles(path);
    return name.endsWith('.md') ? [path] : [];
  });
}

const FILES = ['README.md', ...markdownFiles('docs')];
const read = (file: string) => readFileSync(file, 'utf8');

/** The text of fenced code blocks and inline code spans: what a reader copies. */
function codeOf(markdown: string): string[] {
  const blocks = [...markdown.matchAll(/^```[^\n]*\n([\s\S]*?)^```/gm)].map((m) => m[1]);
  const prose = markdown.replace(/^```[^\n]*\n[\s\S]*?^```/gm, '');
  return [...blocks, ...[...prose.matchAll(/`([^`\n]+)`/g)].map((m) => m[1])];
}

const catalog = loadCatalog({});
const PROVIDERS = [...catalog.providers().map((p) => p.id), 'pass'];
// A provider id not inside a longer word, path, host or package name (`api.openai.com/v1`, `@openai/codex`).
// An upstream's own name in a catalog snippet (`"upstream_model": "openai/gpt-oss-120b"`) is not a gateway id.
const MODEL_ID = new RegExp(
  `(?<![A-Za-z0-9._/@-])(?<!upstream_model"\\s*:\\s*")(?:${PROVIDERS.map((p) => p.replace(/[-]/g, '\\-')).join('|')})/[A-Za-z0-9][A-Za-z0-9._:/-]*`,
  'g',
);

function modelIds(code: string): string[] {
  return [...code.matchAll(MODEL_ID)].map((m) => m[0].replace(/[.,:/]+$/, ''));
}

const MAKE_TARGETS = new Set([...read('Makefile').matchAll(/^([a-z][a-z0-9-]*):/gm)].map((m) => m[1]));

async function help(argv: string[]): Promise<{ code: number; text: string }> {
  const out: string[] = [];
  const code = await runCli([...argv, '--help'], {}, { out: (l) => out.push(l), err: (l) => out.push(l) });
  return { code, text: out.join('\n') };
}

/**
 * `npx modelgate <rest of line>` (or the built CLI by its path, `node …/dist/src/cli.js <rest>`) → command,
 * subcommand, options (quoted arguments, comments and pipes left out).
 */
function cliCalls(code: string): Array<{ line: string; words: string[]; options: string[] }> {
  return [...code.matchAll(/(?:npx modelgate|node \S*\/dist\/src\/cli\.js) ([^\n]*)/g)].map((m) => {
    const line = m[1].replace(/\s#.*$/, '').split(/\s[|&;>]/)[0];
    const tokens = line
      .replace(/"[^"]*"|'[^']*'/g, ' ')
      .split(/\s+/)
      .filter(Boolean);
    const words = tokens
      .slice(0, 2)
      .filter((t, i) => /^[a-z][a-z-]*$/.test(t) && (i === 0 || /^[a-z][a-z-]*$/.test(tokens[0])));
    return { line: m[0], words, options: tokens.filter((t) => /^--[a-z]/.test(t)).map((t) => t.split('=')[0]) };
  });
}

/** GitHub's heading anchors (lower case, punctuation dropped, spaces as hyphens), and `<a id="…">` anchors (table rows). */
function anchors(markdown: string): Set<string> {
  const prose = markdown.replace(/^```[^\n]*\n[\s\S]*?^```/gm, '');
  const headings = [...prose.matchAll(/^#{1,6} (.+)$/gm)].map((m) =>
    m[1]
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N} _-]/gu, '')
      .replace(/ /g, '-'),
  );
  return new Set([...headings, ...[...prose.matchAll(/<a id="([^"]+)"><\/a>/g)].map((m) => m[1])]);
}

describe('README.md and docs/', () => {
  it('the README is a first read: at most 250 lines, the two commands and the license up front', () => {
    const readme = read('README.md');
    expect(readme.split('\n').length).toBeLessThanOrEqual(250);
    const firstScreen = readme.split('\n').slice(0, 40).join('\n');
    expect(firstScreen).toContain('make run');
    expect(firstScreen).toContain('make test');
    expect(readme).toContain('[LICENSE](LICENSE)');
    expect(read('LICENSE')).toContain('Apache License\n                           Version 2.0, January 2004');
    expect(JSON.parse(read('package.json')).license).toBe('Apache-2.0');
  });

  it('every <provider>/<model> id in code resolves in the shipped catalog', () => {
    const unknown: string[] = [];
    let seen = 0;
    for (const file of FILES) {
      for (const id of codeOf(read(file)).flatMap(modelIds)) {
        if (id.includes('*')) continue;
        seen++;
        if (!catalog.resolve(id).ok) unknown.push(`${file}: ${id}`);
      }
    }
    expect(unknown).toEqual([]);
    expect(seen).toBeGreaterThan(20);
  });

  it("every <provider>/<model> id in the OpenAPI document's examples resolves, but for the unknown-model examples", () => {
    // The examples of a 404 (and of an unknown `after_id`) name a model that must not exist; every other example is
    // what a client generated from the document, or a fuzzer, sends first.
    const UNKNOWN = ['openai/gpt-9', 'anthropic/claude-9', 'google/gemini-9'];
    for (const id of UNKNOWN) expect(catalog.resolve(id).ok, id).toBe(false);
    const unknown: string[] = [];
    let seen = 0;
    const walk = (node: unknown, path: string, inExample: boolean): void => {
      if (Array.isArray(node)) for (const [i, item] of node.entries()) walk(item, `${path}/${i}`, inExample);
      else if (node && typeof node === 'object') {
        for (const [key, value] of Object.entries(node))
          walk(value, `${path}/${key}`, inExample || key === 'example' || key === 'examples');
      } else if (typeof node === 'string' && inExample) {
        for (const id of modelIds(decodeURIComponent(node))) {
          seen++;
          if (!UNKNOWN.includes(id) && !catalog.resolve(id).ok) unknown.push(`${path}: ${id}`);
        }
      }
    };
    walk(openapi, '', false);
    expect(unknown).toEqual([]);
    expect(seen).toBeGreaterThan(50);
  });

  it('every `make <target>` exists in the Makefile', () => {
    const missing = FILES.flatMap((file) =>
      codeOf(read(file))
        .flatMap((code) => [...code.matchAll(/(?<![\w-])make ([a-z][a-z0-9-]*)/g)].map((m) => m[1]))
        .filter((target) => !MAKE_TARGETS.has(target))
        .map((target) => `${file}: make ${target}`),
    );
    expect(missing).toEqual([]);
  });

  it('every `npx modelgate …` is a real command, subcommand and option; no bare `modelgate <command>`', async () => {
    const problems: string[] = [];
    let seen = 0;
    for (const file of FILES) {
      for (const code of codeOf(read(file))) {
        if (
          /(?<!npx )(?<![\w/.-])modelgate (?:serve|migrate|users|keys|tokens|credits|pass|admin-keys|generations|conformance|--help|--version)\b/.test(
            code,
          )
        ) {
          problems.push(`${file}: bare "modelgate" (write npx modelgate): ${code.trim().split('\n')[0]}`);
        }
        for (const call of cliCalls(code)) {
          seen++;
          if (call.words.length === 0) continue;
          const usage = await help(call.words.slice(0, 1));
          if (usage.code !== 0) {
            problems.push(`${file}: no command "${call.words[0]}" in ${call.line}`);
            continue;
          }
          if (call.words[1] && !usage.text.includes(`modelgate ${call.words[0]} ${call.words[1]}`)) {
            problems.push(`${file}: no subcommand "${call.words.join(' ')}" in ${call.line}`);
          }
          const own = (await help(call.words)).text;
          for (const option of call.options.filter((o) => o !== '--help' && o !== '--version'))
            if (!own.includes(option)) problems.push(`${file}: ${call.words.join(' ')} has no option ${option}`);
        }
      }
    }
    expect(problems).toEqual([]);
    expect(seen).toBeGreaterThan(10);
  });

  it('every relative link and #anchor points to something that exists', () => {
    const broken: string[] = [];
    for (const file of FILES) {
      const text = read(file).replace(/^```[^\n]*\n[\s\S]*?^```/gm, '');
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target)) continue;
        const [path, anchor] = target.split('#');
        const resolved = path ? resolve(dirname(file), path) : resolve(file);
        if (!existsSync(resolved)) {
          broken.push(`${file}: ${target}`);
          continue;
        }
        if (anchor && resolved.endsWith('.md') && !anchors(read(resolved)).has(anchor))
          broken.push(`${file}: ${target} (no such heading in ${relative('.', resolved)})`);
      }
    }
    expect(broken).toEqual([]);
  });
});
