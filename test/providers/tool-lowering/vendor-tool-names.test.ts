import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ANTHROPIC_TOOL_NAMES,
  CHAT_TOOL_NAMES,
  GEMINI_TOOL_NAMES,
  ToolNameTable,
  vendorToolName,
  type ToolNameRule,
} from '../../../src/providers/tool-lowering/vendor-tool-names.js';

const VALID: Array<[string, ToolNameRule, RegExp]> = [
  ['anthropic', ANTHROPIC_TOOL_NAMES, /^[a-zA-Z0-9_-]{1,128}$/],
  ['chat', CHAT_TOOL_NAMES, /^[a-zA-Z0-9_-]{1,64}$/],
  ['gemini', GEMINI_TOOL_NAMES, /^[a-zA-Z_][a-zA-Z0-9_.-]{0,63}$/],
];

describe('vendor tool names', () => {
  it('flattens a namespace member as <namespace>__<name>, and keeps a valid plain name as it is', () => {
    expect(vendorToolName('spawn_agent', 'multi_agent_v1', CHAT_TOOL_NAMES)).toBe('multi_agent_v1__spawn_agent');
    expect(vendorToolName('exec_command', undefined, ANTHROPIC_TOOL_NAMES)).toBe('exec_command');
  });

  it('a name too long for the vendor is cut and suffixed with a hash of the original, within the limit', () => {
    const name = vendorToolName('b'.repeat(40), 'a'.repeat(40), CHAT_TOOL_NAMES);
    expect(name).toHaveLength(64);
    expect(name).toMatch(/^a+__b+_[0-9a-f]{8}$/);
    // The same tool gets the same name on every request; a different one another.
    expect(vendorToolName('b'.repeat(40), 'a'.repeat(40), CHAT_TOOL_NAMES)).toBe(name);
    expect(vendorToolName(`${'b'.repeat(39)}c`, 'a'.repeat(40), CHAT_TOOL_NAMES)).not.toBe(name);
  });

  it('Gemini: a name that starts with a digit gets a leading underscore (and a hash, being changed)', () => {
    expect(vendorToolName('3d_render', undefined, GEMINI_TOOL_NAMES)).toMatch(/^_3d_render_[0-9a-f]{8}$/);
  });

  it('two tools that would share a vendor name do not: the later one is hashed, and each call maps back to its own tool', () => {
    const table = new ToolNameTable(CHAT_TOOL_NAMES);
    const plain = table.declare({ name: 'ns__x', kind: 'function' });
    const member = table.declare({ name: 'x', namespace: 'ns', kind: 'custom' });
    expect(plain).toBe('ns__x');
    expect(member).not.toBe(plain);
    expect(table.reverse(plain)).toEqual({ name: 'ns__x', kind: 'function' });
    expect(table.reverse(member)).toEqual({ name: 'x', namespace: 'ns', kind: 'custom' });
    expect(table.forward('x', 'ns')).toBe(member);
  });

  for (const [vendor, rule, valid] of VALID) {
    it(`${vendor}: any set of tools gets valid, distinct names that map back to each tool (property)`, () => {
      const tool = fc.record({
        name: fc.string({ minLength: 1, maxLength: 90 }),
        namespace: fc.option(fc.string({ minLength: 1, maxLength: 90 }), { nil: undefined }),
      });
      fc.assert(
        fc.property(
          fc.uniqueArray(tool, { maxLength: 12, selector: (t) => `${t.namespace ?? ''}\u0000${t.name}` }),
          (tools) => {
            const table = new ToolNameTable(rule);
            const names = tools.map((t) => table.declare({ ...t, kind: 'function' }));
            expect(new Set(names).size).toBe(names.length);
            names.forEach((name, i) => {
              expect(name).toMatch(valid);
              expect(table.reverse(name)).toEqual({
                ...tools[i],
                kind: 'function',
                ...(tools[i].namespace === undefined ? { namespace: undefined } : {}),
              });
            });
          },
        ),
      );
    });
  }
});
