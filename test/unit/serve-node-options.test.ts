// `make run` must start the gateway with the node options every production start uses (the benchmark takes them
// from the same constant), or RSS under load is not what the benchmark measured.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SERVE_NODE_OPTIONS } from '../../src/cli/serve-node-options.js';

describe('SERVE_NODE_OPTIONS', () => {
  it('are the options of the Makefile run target', () => {
    const makefile = readFileSync('Makefile', 'utf8');
    const recipe = /^run:.*\n\t(.*)$/m.exec(makefile)?.[1];
    expect(recipe).toBe(`node ${SERVE_NODE_OPTIONS.join(' ')} dist/src/cli.js serve`);
  });

  it('cap the old generation below 2 GB, where V8 would let it grow to 4x its live size again', () => {
    const option = SERVE_NODE_OPTIONS.find((o) => o.startsWith('--max-old-space-size='));
    const mb = Number(option?.split('=')[1]);
    expect(mb).toBeGreaterThanOrEqual(1024);
    expect(mb).toBeLessThan(2048);
  });
});
