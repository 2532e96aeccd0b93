// Adding a door is its spec, its formats/<door>/ folder with its descriptor, one line in front-doors.ts and one line
// per operation in handlers/index.ts: every generation operation is served by the one generic handler with its door's
// descriptor, and the descriptors list exactly the generation operations of the emitted OpenAPI.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FRONT_DOORS } from '../../src/formats/front-doors.js';
import { buildHandlers } from '../../src/handlers/index.js';
import type { HandlerParts } from '../../src/handlers/handler-parts.js';

const GENERATION_OPERATIONS = [
  'createChatCompletion',
  'createMessage',
  'createResponse',
  'geminiGenerateContent',
  'geminiStreamGenerateContent',
];

/** Parts that answer anything: the handlers are built, never called. */
function anyParts(): HandlerParts {
  const any: unknown = new Proxy(() => any, { get: (_target, name) => (name === 'then' ? undefined : any) });
  return any as HandlerParts;
}

const operationIds = (() => {
  const document = JSON.parse(readFileSync('generated/openapi.json', 'utf8')) as {
    paths: Record<string, Record<string, { operationId?: string }>>;
  };
  return Object.values(document.paths).flatMap((path) =>
    Object.values(path).flatMap((operation) => (operation.operationId ? [operation.operationId] : [])),
  );
})();

describe('generation handlers', () => {
  it("lists each generation operation in exactly one door's descriptor, and each is an operation of the API", () => {
    const listed = FRONT_DOORS.flatMap((door) => door.operationIds);
    expect([...listed].sort()).toEqual(GENERATION_OPERATIONS);
    for (const id of listed) expect(operationIds, id).toContain(id);
  });

  it("maps every generation operation to the generic handler with its door's descriptor, and no other", () => {
    const handlers = buildHandlers(anyParts()) as Record<string, { door?: unknown }>;
    for (const door of FRONT_DOORS)
      for (const id of door.operationIds) expect(handlers[id]?.door, `${id} → ${door.apiFormat}`).toBe(door);
    const generic = Object.keys(handlers).filter((id) => handlers[id].door !== undefined);
    expect(generic.sort()).toEqual(GENERATION_OPERATIONS);
  });
});
