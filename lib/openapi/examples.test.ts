import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument, mediaOf } from './document';
import { responseExamples } from './examples';
import { API_OPERATIONS } from './operations';

// Every operation shows what it answers: an example in each 2xx response of the document (which /docs
// renders), that the operation's own strict response schema accepts.

const SERVER_URL = 'https://sandbox.example.com';

describe('response examples', () => {
  it.each(API_OPERATIONS.map((operation) => [operation.operationId, operation] as const))(
    '%s has one its response schema accepts',
    (operationId, operation) => {
      const example = responseExamples(SERVER_URL)[operationId];
      expect(example, operationId).toBeDefined();
      const parsed = operation.success.schema.safeParse(example);
      expect(parsed.success ? [] : parsed.error.issues).toEqual([]);
    },
  );

  it('are in every success response of the document, and only for operations that exist', () => {
    const document = buildOpenApiDocument({ serverUrl: SERVER_URL });
    const missing: string[] = [];
    for (const operation of API_OPERATIONS) {
      const responses = document.paths[operation.path][operation.method.toLowerCase()].responses;
      for (const [status, response] of Object.entries(responses)) {
        if (status.startsWith('2') && mediaOf(response)?.example === undefined)
          missing.push(`${operation.operationId} ${status}`);
      }
    }
    expect(missing).toEqual([]);
    expect(Object.keys(responseExamples(SERVER_URL)).sort()).toEqual(
      API_OPERATIONS.map((operation) => operation.operationId).sort(),
    );
  });

  it("use this deployment's URLs", () => {
    const session = responseExamples(SERVER_URL).createCheckoutSession as { url: string };
    expect(session.url).toMatch(/^https:\/\/sandbox\.example\.com\/checkout\/cs_/);
  });
});
