// The test runner's configuration. It lives in test/ beside the test kit (test/package.json) that installs vitest,
// so `vitest/config` resolves from there; run it as `npm test` or `make test`, which pass --config.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // The repository root, not this folder: the include globs and globalSetup are relative to it, and the tests run
  // with it as their working directory.
  root: fileURLToPath(new URL('..', import.meta.url)),
  test: {
    globalSetup: ['test/helpers/global-setup.ts'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default'],
    projects: [
      // The data-layer suites share one process per worker: each file still opens databases of its own (helpers/
      // databases.ts), and loading PGlite and the modules again for every file cost more than most of these files' tests.
      { extends: true, test: { name: 'db', include: ['test/db/**/*.test.ts'], isolate: false } },
      {
        extends: true,
        test: { name: 'isolated', include: ['test/**/*.test.ts'], exclude: ['**/node_modules/**', 'test/db/**'] },
      },
    ],
  },
});
