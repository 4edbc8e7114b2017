import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument, mediaOf } from './document';
import { API_OPERATIONS } from './operations';

// Every example of the document, answers and request bodies, valid against the schema beside it (ajv,
// JSON Schema 2020-12, the dialect of OpenAPI 3.1), as a client validating with the document would see it.

const DOCUMENT_URI = 'https://sandbox.invalid/openapi.json';
const document = buildOpenApiDocument({ serverUrl: 'https://sandbox.example.com' });
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema({ ...document, $id: DOCUMENT_URI });

const pointer = (...segments: string[]) =>
  segments.map((segment) => segment.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

function problems(segments: string[], example: unknown) {
  const check = ajv.compile({ $ref: `${DOCUMENT_URI}#/${pointer(...segments)}` });
  return check(example) ? [] : check.errors;
}

const examples = API_OPERATIONS.flatMap((operation) => {
  const method = operation.method.toLowerCase();
  const described = document.paths[operation.path][method];
  const found: [string, string[], unknown][] = Object.entries(described.responses)
    .filter(([, response]) => mediaOf(response)?.example !== undefined)
    .map(([status, response]) => [
      `${operation.operationId} ${status}`,
      ['paths', operation.path, method, 'responses', status, 'content', ...Object.keys(response.content!), 'schema'],
      mediaOf(response)!.example,
    ]);
  const body = described.requestBody?.content['application/json'];
  if (body?.example !== undefined)
    found.push([
      `${operation.operationId} request body`,
      ['paths', operation.path, method, 'requestBody', 'content', 'application/json', 'schema'],
      body.example,
    ]);
  return found;
});

describe('the examples of the document', () => {
  it('include an answer of every operation', () => {
    const answered = new Set(examples.filter(([name]) => !name.endsWith('body')).map(([name]) => name.split(' ')[0]));
    expect(API_OPERATIONS.filter((operation) => !answered.has(operation.operationId))).toEqual([]);
  });

  it.each(examples)('%s is valid against its schema', (_name, segments, example) => {
    expect(problems(segments, example)).toEqual([]);
  });
});
