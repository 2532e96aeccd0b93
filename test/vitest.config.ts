// The test runner's configuration. It lives in test/ beside the test kit (test/package.json) that installs vitest,
// so `vitest/config` resolves from there; run it as `npm test` or `make test`, which pass --config.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import SlowFirstSequencer from './helpers/slow-first-sequencer.js';

// Files that set process-wide state a later file in the same process would inherit (the OpenTelemetry API's global
// diagnostics logger, OTEL_* variables the SDK reads when it starts): each runs in a process of its own.
const PROCESS_WIDE = [
  'test/unit/gateway-spans.test.ts',
  'test/unit/tracing-sdk-drops.test.ts',
  'test/e2e/tracing-attempts.test.ts',
  'test/e2e/tracing.test.ts',
  'test/e2e/tracing-otlp.test.ts',
  'test/e2e/tracing-sampler.test.ts',
  'test/e2e/trace-forwarding.test.ts',
];

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
    sequence: { sequencer: SlowFirstSequencer },
    projects: [
      // Test files share one process per worker: each still opens databases and gateways of its own, and loading PGlite
      // and the modules again for every file cost more than most files' tests (about half the suite's CPU time).
      { extends: true, test: { name: 'db', include: ['test/db/**/*.test.ts'], isolate: false } },
      {
        extends: true,
        test: {
          name: 'shared',
          include: ['test/**/*.test.ts'],
          exclude: ['**/node_modules/**', 'test/db/**', ...PROCESS_WIDE],
          isolate: false,
        },
      },
      { extends: true, test: { name: 'isolated', include: PROCESS_WIDE } },
    ],
  },
});
