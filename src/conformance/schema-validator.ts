// Validates values against any schema of the OpenAPI document by JSON pointer, with Ajv + ajv-formats, the same
// validator family openapi-backend uses on the server side. The whole document is registered once, so `$ref`s
// between components resolve exactly as written.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { OpenApiDocument } from './openapi-document.js';

const DOCUMENT_ID = 'openapi.json';

export interface ValidationResult {
  valid: boolean;
  /** One line per problem, `<instance path>: <message>`. */
  errors: string[];
}

export interface SchemaValidator {
  validate(pointer: string, value: unknown): ValidationResult;
  isValid(pointer: string, value: unknown): boolean;
}

export function createSchemaValidator(doc: OpenApiDocument): SchemaValidator {
  // strict: false — the document carries OpenAPI keywords (discriminator, example, xml) that are not JSON Schema;
  // oneOf branches here are already exclusive through their single-value enums, so ignoring discriminator is sound.
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: true });
  addFormats.default(ajv);
  ajv.addSchema(doc.raw, DOCUMENT_ID);
  const compiled = new Map<string, ValidateFunction>();

  const compile = (pointer: string): ValidateFunction => {
    let fn = compiled.get(pointer);
    if (!fn) {
      fn = ajv.compile({ $ref: `${DOCUMENT_ID}${pointer}` });
      compiled.set(pointer, fn);
    }
    return fn;
  };

  return {
    validate(pointer, value) {
      const fn = compile(pointer);
      const valid = fn(value) as boolean;
      return { valid, errors: valid ? [] : formatErrors(fn.errors ?? []) };
    },
    isValid(pointer, value) {
      return compile(pointer)(value) as boolean;
    },
  };
}

function formatErrors(errors: ErrorObject[]): string[] {
  // oneOf/anyOf failures list every branch's complaint; the first few are enough to locate the problem.
  return errors
    .slice(0, 8)
    .map(
      (e) =>
        `${e.instancePath || '(root)'}: ${e.message ?? e.keyword}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`,
    );
}
