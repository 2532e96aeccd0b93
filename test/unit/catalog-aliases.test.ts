// Catalog aliases: what a catalog may declare (an alias never hides a catalog id, names a catalog model and not an
// alias, is unique) and how lookups treat one.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Catalog } from '../../src/catalog/catalog.js';
import { parseCatalog } from '../../src/catalog/parse-catalog.js';

const shipped = JSON.parse(readFileSync(new URL('../../src/catalog/catalog.json', import.meta.url), 'utf8'));

function withAliases(aliases: unknown): unknown {
  return { ...shipped, aliases };
}

describe('catalog aliases: what loads', () => {
  it.each([
    [[{ name: 'openai/gpt-5.4', model: 'openai/gpt-5.5' }], 'is a catalog model id; an alias never hides one'],
    [[{ name: 'fast', model: 'openai/gpt-9' }], 'is not a catalog model id'],
    [
      [
        { name: 'fast', model: 'openai/gpt-5.5' },
        { name: 'faster', model: 'fast' },
      ],
      'is not a catalog model id',
    ],
    [
      [
        { name: 'fast', model: 'openai/gpt-5.5' },
        { name: 'fast', model: 'openai/gpt-5.4' },
      ],
      'duplicate alias name "fast"',
    ],
    [[{ name: '@preset/x', model: 'openai/gpt-5.5' }], 'not starting with "@"'],
    [[{ name: 'fast', model: 'openai/gpt-5.5', color: 'red' }], 'color'],
    [{ fast: 'openai/gpt-5.5' }, 'must be an array'],
  ])('refuses %j', (aliases, message) => {
    expect(() => parseCatalog(withAliases(aliases), 'test.json')).toThrow(message);
  });

  it('a catalog without aliases has none', () => {
    const { aliases: _, ...rest } = shipped;
    expect(parseCatalog(rest, 'test.json').aliases).toEqual([]);
  });
});

describe('catalog aliases: lookups', () => {
  const catalog = new Catalog(
    parseCatalog(withAliases([{ name: 'house-model', model: 'openai/gpt-5.4-mini' }]), 'test.json'),
  );

  it('resolves an alias to the entry it stands for, under the catalog id', () => {
    const r = catalog.resolve('house-model');
    expect(r.ok && r.entry.id).toBe('openai/gpt-5.4-mini');
    expect(catalog.get('house-model')?.id).toBe('openai/gpt-5.4-mini');
  });

  it('lists each alias after the models, as its own entry naming its model; list() keeps the catalog only', () => {
    const listed = catalog.listed();
    expect(listed.at(-1)).toMatchObject({ id: 'house-model', aliasOf: 'openai/gpt-5.4-mini' });
    expect(catalog.list().some((e) => e.id === 'house-model')).toBe(false);
    expect(catalog.listedEntry('house-model')?.aliasOf).toBe('openai/gpt-5.4-mini');
    expect(catalog.listedEntry('openai/gpt-5.4-mini')?.aliasOf).toBeUndefined();
  });
});
