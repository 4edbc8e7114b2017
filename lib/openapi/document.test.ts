import { compileErrors, validate } from '@readme/openapi-parser';
import { describe, expect, it } from 'vitest';
import { parse } from '@/lib/core/parse';
import { errors, pageRefusals, type ApiError } from '@/lib/core/errors';
import { buildOpenApiDocument } from './document';
import { ERROR_CODES, ERROR_WHEN, FACTORY_ERRORS } from './error-codes';
import { applyRequestNotes, REQUEST_FIELD_NOTES } from './request-notes';
import { API_OPERATIONS } from './operations';

// The document on its own, without a server: valid OpenAPI 3.1 by a third-party validator, with an
// example that the route's own schema accepts, and an error table that is exactly lib/core/errors.ts.

describe('the OpenAPI document', () => {
  it('is valid OpenAPI 3.1 by @readme/openapi-parser, without warnings', async () => {
    const document = buildOpenApiDocument({ serverUrl: 'http://localhost:3000' });
    const result = await validate(structuredClone(document) as unknown as Parameters<typeof validate>[0]);
    expect(result.valid ? 'valid' : compileErrors(result)).toBe('valid');
    expect(result.warnings).toEqual([]);
  });

  it('names each operation once and has one operation per method and path', () => {
    const ids = API_OPERATIONS.map((operation) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    const routes = API_OPERATIONS.map((operation) => `${operation.method} ${operation.path}`);
    expect(new Set(routes).size).toBe(routes.length);
  });

  it.each(
    API_OPERATIONS.filter((operation) => operation.body?.example).map(
      (operation) => [operation.operationId, operation] as const,
    ),
  )('has an example body for %s that its route accepts', (_id, operation) => {
    expect(() => parse(operation.body!.schema, operation.body!.example)).not.toThrow();
  });

  it('describes request fields that exist, in request bodies that exist', () => {
    const document = buildOpenApiDocument({ serverUrl: 'http://localhost:3000' });
    for (const [name, notes] of Object.entries(REQUEST_FIELD_NOTES)) {
      expect(document.components.schemas[name], name).toBeDefined();
      expect(applyRequestNotes(structuredClone(document.components.schemas[name]), notes), name).toEqual([]);
    }
  });

  it('shows an example body for every endpoint that needs one', () => {
    const needing = API_OPERATIONS.filter((operation) => operation.body?.required && !operation.body.example);
    expect(needing.map((operation) => operation.operationId)).toEqual([]);
  });
});

describe('the error table', () => {
  it('describes exactly the codes lib/core/errors.ts makes', () => {
    const made = FACTORY_ERRORS.map((error) => error.code).sort();
    expect(Object.keys(ERROR_WHEN).sort()).toEqual(made);
    expect(ERROR_CODES).toHaveLength(Object.keys(errors).length);
  });

  it('gives each refusal a code of its own: no two factories share one', () => {
    const pageErrors = Object.values(pageRefusals).map((make) => make('example', undefined, 'Example.'));
    const codes = [...FACTORY_ERRORS, ...pageErrors].map((error: ApiError) => error.code);
    expect(codes.filter((code, index) => codes.indexOf(code) !== index)).toEqual([]);
  });

  it('leaves out the refusals no /v1 operation can answer, and no operation names one', () => {
    const pageCodes = Object.values(pageRefusals).map((make) => make('example', undefined, 'Example.').code);
    expect(pageCodes).toContain('refund_policy_not_manual');
    for (const code of pageCodes) expect(Object.keys(ERROR_WHEN)).not.toContain(code);
    const named = API_OPERATIONS.flatMap((operation): string[] => operation.errors);
    for (const code of pageCodes) expect(named).not.toContain(code);
  });

  it('keeps status and type from the factories', () => {
    expect(ERROR_CODES.find((row) => row.code === 'refund_exceeds_available')).toMatchObject({
      status: 409,
      type: 'invalid_request_error',
    });
    expect(ERROR_CODES.find((row) => row.code === 'idempotency_key_reused')).toMatchObject({
      status: 422,
      type: 'idempotency_error',
    });
    expect(ERROR_CODES.map((row) => row.status)).toEqual(
      [...ERROR_CODES.map((row) => row.status)].sort((a, b) => a - b),
    );
  });
});
