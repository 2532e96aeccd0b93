// The test runner's configuration. It lives in test/ beside the test kit (test/package.json) that installs vitest,
// so `vitest/config` resolves from there; run it as `npm test` or `make test`, which pass --config.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // The repository root, not this folder: the include globs and globalSetup are relative to it, and the tests run
  // with it as their working directory.
  root: fileURLToPath(new URL('..', import.meta.url)),
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default'],
  },
});
