// Runs the longest test files of each project first. vitest orders by the durations of its last run on this machine;
// a fresh clone (CI) has none, so it orders by file size, and a minute-long file started last leaves the other worker
// idle to the end. These files took over ten seconds each on a 2-core host.
import { BaseSequencer, type TestSpecification } from 'vitest/node';

export const SLOW_FILES = [
  'test/e2e/crash-settlement.test.ts',
  'test/e2e/cli-served-folder.test.ts',
  'test/compat/one-cell-per-client.test.ts',
  'test/browser/docs-page.test.ts',
  'test/e2e/serve-logs.test.ts',
  'test/contract/operations.test.ts',
  'test/db/data-folder.test.ts',
  'test/browser/account-organization-settings.test.ts',
  'test/e2e/credit-leases-instances.test.ts',
  'test/e2e/claude-code-statusline.test.ts',
  'test/browser/account-page.test.ts',
  'test/contract/modelgate.test.ts',
  'test/e2e/gemini-cli.test.ts',
  'test/e2e/drain-on-abort.test.ts',
  'test/unit/spec-generated.test.ts',
  'test/e2e/serve-workers.test.ts',
  'test/db/credit-lease-recalls.test.ts',
  'test/db/connect.test.ts',
  'test/browser/account-organizations.test.ts',
  'test/e2e/responses-websocket-lifecycle.test.ts',
  'test/db/living-functions.test.ts',
  'test/e2e/upstream-concurrency.test.ts',
  'test/e2e/database-restart.test.ts',
];

export default class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const root = `${this.ctx.config.root.replace(/\/$/, '')}/`;
    const rank = (spec: TestSpecification): number => {
      const index = SLOW_FILES.indexOf(spec.moduleId.replace(root, ''));
      return index === -1 ? SLOW_FILES.length : index;
    };
    // Projects run one after another in the base order; within each, the slow files go first.
    const projectOrder = new Map<string, number>();
    for (const spec of sorted)
      if (!projectOrder.has(spec.project.name)) projectOrder.set(spec.project.name, projectOrder.size);
    return sorted
      .map((spec, position) => ({ spec, position }))
      .sort(
        (a, b) =>
          projectOrder.get(a.spec.project.name)! - projectOrder.get(b.spec.project.name)! ||
          rank(a.spec) - rank(b.spec) ||
          a.position - b.position,
      )
      .map(({ spec }) => spec);
  }
}
