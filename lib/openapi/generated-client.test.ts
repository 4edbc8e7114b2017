import fs from 'node:fs';
import path from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GET } from '@/app/v1/openapi.json/route';
import { readmeRequestBodies } from './readme-bodies';
import { API_OPERATIONS } from './operations';
import { DECLINE_CARD_BODY } from './snippets';

// A merchant's first step: types generated from /v1/openapi.json by openapi-typescript with its default
// settings, and the request bodies the README and /docs show, compiled against them with tsc --strict.

const folder = path.resolve(process.env.TEST_DATA_DIR ?? 'data/test', `generated-client-${process.pid}`);

type Sample = { name: string; operationId: string; body: unknown };

const samples: Sample[] = [
  ...readmeRequestBodies().map(({ operation, body }, index) => ({
    name: `readme${index}`,
    operationId: operation.operationId,
    body,
  })),
  ...API_OPERATIONS.filter((operation) => operation.body?.example).map((operation) => ({
    name: `docs_${operation.operationId}`,
    operationId: operation.operationId,
    body: operation.body!.example,
  })),
  { name: 'docs_declineCard', operationId: 'payCheckoutSession', body: DECLINE_CARD_BODY },
  // authorize now, capture later: the session that asks for it, and a capture of part of it
  {
    name: 'manualCaptureSession',
    operationId: 'createCheckoutSession',
    body: {
      order_reference: 'order-2001',
      currency: 'USD',
      items: [{ name: 'Desk', quantity: 1, unit_amount: 25000 }],
      amount: 25000,
      return_url: 'https://shop.example.com/thanks',
      capture_method: 'manual',
    },
  },
  { name: 'partialCapture', operationId: 'capturePayment', body: { amount_to_capture: 20000 } },
];

function compile(declarations: string): string[] {
  const file = path.join(folder, `bodies-${Math.random().toString(36).slice(2)}.ts`);
  fs.writeFileSync(
    file,
    `import type { operations } from './api';\n` +
      `type Body<Id extends keyof operations> = NonNullable<operations[Id]['requestBody']>['content']['application/json'];\n` +
      declarations,
  );
  const program = ts.createProgram([file], {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    types: [],
  });
  return ts
    .getPreEmitDiagnostics(program)
    .map((diagnostic) => `TS${diagnostic.code}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`);
}

const declaration = (sample: Sample) =>
  `export const ${sample.name}: Body<'${sample.operationId}'> = ${JSON.stringify(sample.body, null, 2)};\n`;

beforeAll(async () => {
  const served = await GET(new Request('http://localhost:3000/v1/openapi.json'), { params: Promise.resolve({}) });
  const types = astToString(await openapiTS(await served.json()));
  fs.mkdirSync(folder, { recursive: true });
  fs.writeFileSync(path.join(folder, 'api.ts'), types);
}, 60_000);
afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

describe('types generated from /v1/openapi.json with openapi-typescript', () => {
  it('takes the README and /docs request bodies under --strict', () => {
    expect(samples.filter((sample) => sample.name.startsWith('readme')).length).toBeGreaterThanOrEqual(5);
    expect(compile(samples.map(declaration).join(''))).toEqual([]);
  });

  it('leaves out no field with a default (the payment link without `active`)', () => {
    const readmeLink = samples.find(
      (sample) => sample.name.startsWith('readme') && sample.operationId === 'createPaymentLink',
    );
    expect(readmeLink?.body).not.toHaveProperty('active');
  });

  it('still refuses a body without a required field, or with a misspelt one', () => {
    const errors = compile(
      declaration({ name: 'missing', operationId: 'createPaymentLink', body: { name: 'Ticket', amount: 4500 } }) +
        declaration({ name: 'misspelt', operationId: 'updatePaymentLink', body: { activ: false } }),
    );
    expect(errors).toEqual([expect.stringMatching(/^TS2741: .*currency/), expect.stringMatching(/^TS2353: .*activ/)]);
  });
});
