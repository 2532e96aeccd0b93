// What the model-based sequences share: a client that sends a request, applies every response check to it, keeps
// the steps taken so far, and turns any broken expectation into a ConformanceFailure carrying those steps.
import type { OpenApiDocument, Operation } from './openapi-document.js';
import type { Sender, Exchange } from './http-exchange.js';
import { checkExchange, RESPONSE_CHECKS, STREAM_CHECKS, type CheckContext, type CheckName } from './response-checks.js';
import { ConformanceFailure } from './counterexample.js';
import {
  buildRequest,
  type Credential,
  type Expectation,
  type RequestParts,
  type RequestSpec,
} from './request-spec.js';

// The per-response checks a stateful step must pass; the semantic ones are asserted by the sequence itself.
const STEP_CHECKS = new Set<CheckName>([...RESPONSE_CHECKS, ...STREAM_CHECKS, 'use_after_free']);

export class StatefulClient {
  readonly steps: string[] = [];

  constructor(
    private readonly doc: OpenApiDocument,
    private readonly sender: Sender,
    private readonly checks: CheckContext,
    /** The check a broken expectation of this sequence is reported under. */
    readonly check: CheckName,
    /** Operations the deployment implements (and the run selected); by default every one of the document. */
    private readonly available: (operationId: string) => boolean = () => true,
  ) {}

  operation(operationId: string): Operation {
    const op = this.doc.operations.find((o) => o.operationId === operationId);
    if (!op) throw new Error(`the document has no operation ${operationId}`);
    return op;
  }

  /** Whether the sequence may use an operation: in the document, and implemented by the deployment. */
  hasOperation(operationId: string): boolean {
    return this.doc.operations.some((o) => o.operationId === operationId) && this.available(operationId);
  }

  /** Send, record the step, and fail on any response check. */
  async call(
    operationId: string,
    credential: Credential,
    parts: Partial<RequestParts> & { json?: unknown } = {},
    step = operationId,
    expect?: Expectation,
  ): Promise<Exchange> {
    const op = this.operation(operationId);
    const body = parts.json === undefined ? parts.body : JSON.stringify(parts.json);
    const spec = buildRequest(
      op,
      {
        params: parts.params ?? {},
        body,
        contentType: body === undefined ? undefined : 'application/json',
        accept: parts.accept,
      },
      { credential, description: step, expect },
    );
    return this.send(spec, step);
  }

  async send(spec: RequestSpec, step: string): Promise<Exchange> {
    this.steps.push(step);
    const exchange = await this.sender.send(spec);
    const failures = checkExchange(this.checks, this.operation(spec.operationId), exchange).filter((f) =>
      STEP_CHECKS.has(f.check),
    );
    if (failures.length > 0) throw new ConformanceFailure(exchange, failures, [...this.steps]);
    return exchange;
  }

  /** Fail the sequence under its own check unless `ok`. */
  expect(ok: boolean, exchange: Exchange, message: string): void {
    if (!ok) throw new ConformanceFailure(exchange, [{ check: this.check, message }], [...this.steps]);
  }

  /** The answer's JSON, of the type its documented schema gives it: `send` has checked the answer against that schema. */
  json<Documented>(exchange: Exchange): Documented {
    try {
      return JSON.parse(exchange.body) as Documented;
    } catch {
      throw new ConformanceFailure(
        exchange,
        [{ check: this.check, message: 'response body is not JSON' }],
        [...this.steps],
      );
    }
  }
}
