// The per-operation properties of a run: every implemented operation × valid, invalid and unauthenticated inputs.
// Any operation of the document is exercised from its schemas alone, so routes the kit has no specific code for
// (new front doors, admin, health) are still tested; when the kit cannot generate or run inputs for one, that
// operation is reported as untested instead of aborting the run.
import fc from 'fast-check';
import type { OpenApiDocument, Operation } from './openapi-document.js';
import type { RequestArbitraries } from './request-arbitraries.js';
import type { RequestSpec } from './request-spec.js';
import { checksFor, runProperty, targetName, type InputKind, type PropertyEnvironment } from './property-runner.js';
import { needsModel } from './choose-models.js';
import type { CheckResult } from './report.js';

export async function runProperties(
  doc: OpenApiDocument,
  env: PropertyEnvironment,
  arbitraries: RequestArbitraries,
  options: { operations: Operation[]; kinds: InputKind[]; model?: string; log: (line: string) => void },
): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  for (const op of options.operations) {
    for (const kind of options.kinds) {
      const skipped = (note: string) =>
        checksFor(op, kind).map(
          (check): CheckResult => ({ check, target: targetName(op, kind), outcome: 'skipped', runs: 0, note }),
        );
      if (kind === 'unauthorized' && !op.secured) continue;
      if (kind === 'valid' && !options.model && needsModel(doc, op)) {
        results.push(...skipped('no model for valid requests (--model, or GET /models)'));
        continue;
      }
      try {
        const arbitrary =
          kind === 'valid'
            ? arbitraries.valid(op)
            : kind === 'invalid'
              ? arbitraries.invalid(op)
              : arbitraries.unauthorized(op);
        if (!arbitrary) continue;
        options.log(`${op.operationId} [${kind}]`);
        results.push(...(await runProperty(env, op, kind, arbitrary)));
      } catch (err) {
        // A limit of the kit (a schema it cannot draw from), not a fault of the server: say so, go on.
        results.push(
          ...skipped(`untested: the kit could not exercise it: ${(err as Error).message.split('\n')[0].slice(0, 300)}`),
        );
      }
    }
  }
  return results;
}

/** One valid request per operation (for replay with a deleted key); operations the kit cannot draw from are left out. */
export function sampleRequests(operations: Operation[], arbitraries: RequestArbitraries, seed: number): RequestSpec[] {
  return operations.flatMap((op) => {
    try {
      return [fc.sample(arbitraries.valid(op), { numRuns: 1, seed })[0]];
    } catch {
      return [];
    }
  });
}
