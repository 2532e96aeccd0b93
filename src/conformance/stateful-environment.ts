// Runs model-based command sequences under the same bounds and reporting as the per-operation properties: a fixed
// canonical sequence first (so the lifecycle the spec describes is always covered), then generated ones with
// fast-check shrinking a failing sequence to the fewest steps that still fail.
import fc from 'fast-check';
import type { OpenApiDocument } from './openapi-document.js';
import type { Sender } from './http-exchange.js';
import type { CheckContext, CheckName } from './response-checks.js';
import { StatefulClient } from './stateful-client.js';
import { ConformanceFailure, toCounterexample } from './counterexample.js';
import { buildRequest, type Credential } from './request-spec.js';
import type { CheckResult } from './report.js';

export interface SequenceEnvironment {
  doc: OpenApiDocument;
  sender: Sender;
  main: Credential;
  /** Creates, lists and deletes keys: the management credential, or `main` when the run has none. */
  manager: Credential;
  secrets: Set<string>;
  maxCommands: number;
  client(check: CheckName): StatefulClient;
  /** Best-effort cleanup of a key created during the run. */
  deleteKey(keyId: string): Promise<void>;
  runSequences<C>(
    target: string,
    reported: CheckName[],
    commands: fc.Arbitrary<Iterable<C>>,
    run: (commands: Iterable<C>) => Promise<void>,
    canonical?: C[],
  ): Promise<CheckResult[]>;
}

export function createSequenceEnvironment(options: {
  doc: OpenApiDocument;
  sender: Sender;
  checks: CheckContext;
  main: Credential;
  manager: Credential;
  secrets: Set<string>;
  numRuns: number;
  seed: number;
  timeLimitMs: number;
  maxCommands: number;
  /** Operations the sequences may use beyond those they require (e.g. GET /key): the implemented ones. */
  available?: (operationId: string) => boolean;
}): SequenceEnvironment {
  const { doc, sender, checks, main, manager, secrets } = options;
  return {
    doc,
    sender,
    main,
    manager,
    secrets,
    maxCommands: options.maxCommands,
    client: (check) => new StatefulClient(doc, sender, checks, check, options.available),
    async deleteKey(keyId) {
      const op = doc.operations.find((o) => o.operationId === 'deleteApiKey');
      if (op)
        await sender.send(
          buildRequest(op, { params: { 'path:key_id': keyId } }, { credential: manager, description: 'cleanup' }),
        );
    },
    async runSequences(target, reported, commands, run, canonical) {
      const failed = new Map<CheckName, CheckResult>();
      let runs = 0;
      const record = (error: unknown) => {
        if (!(error instanceof ConformanceFailure)) {
          throw new Error(
            `conformance runner error in ${target}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
          );
        }
        for (const f of error.failures) {
          if (!failed.has(f.check)) {
            failed.set(f.check, {
              check: f.check,
              target,
              outcome: 'failed',
              runs,
              counterexample: toCounterexample(error, f.check, sender.baseUrl, secrets),
            });
          }
        }
      };
      try {
        if (canonical) {
          runs++;
          await run(canonical);
        }
      } catch (error) {
        record(error);
      }
      if (failed.size === 0) {
        const details = await fc.check(fc.asyncProperty(commands, run), {
          numRuns: options.numRuns,
          seed: options.seed,
          plugins: [fc.interruptAfterTimeLimit(options.timeLimitMs)],
        });
        runs += details.numRuns;
        if (details.failed) record(details.errorInstance);
      }
      const passed = reported
        .filter((check) => !failed.has(check))
        .map((check): CheckResult => ({ check, target, outcome: 'passed', runs }));
      return [...failed.values(), ...passed];
    },
  };
}
