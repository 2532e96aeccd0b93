// Bounded conformance run of every operation except chat completions (see chat-completions.test.ts) against the
// in-process gateway: valid, invalid and unauthenticated inputs drawn from the emitted OpenAPI, every response
// checked against it. The same library backs `modelgate conformance`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDocument } from '../../src/conformance/openapi-document.js';
import { runConformance } from '../../src/conformance/runner.js';
import { formatReport } from '../../src/conformance/report.js';
import {
  BOUNDS,
  SERVED_MODEL,
  TEST_TIMEOUT_MS,
  startContractGateway,
  type ContractGateway,
} from './helpers/contract-gateway.js';
import { createAdminKey } from '../../src/services/admin-keys.js';

const doc = await loadDocument();
const operations = doc.operations.map((op) => op.operationId).filter((id) => id !== 'createChatCompletion');

let target: ContractGateway;
/** The operator API's operations are driven with an admin key (a user key there only ever gets 403). */
let adminKey: string;
beforeAll(async () => {
  target = await startContractGateway();
  adminKey = (await createAdminKey(target.gw.db, { name: 'contract' })).secret;
});
afterAll(async () => {
  await target?.close();
});

describe('conformance per operation', () => {
  it.each(operations)(
    '%s',
    async (operationId) => {
      const report = await runConformance({
        baseUrl: target.gw.url,
        apiKey: target.user.key,
        adminApiKey: adminKey,
        // Creating, changing and deleting keys takes the account token (or a management key) since issue 35.
        managementKey: target.user.token,
        ...BOUNDS,
        model: SERVED_MODEL,
        operations: [operationId],
        parts: { keys: false, credits: false },
      });
      expect(report.results.length).toBeGreaterThan(0);
      expect(report.ok, formatReport(report)).toBe(true);
    },
    TEST_TIMEOUT_MS,
  );
});
