import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CLIENT_TYPES_FILE, generateClientTypes } from '@/scripts/client-types';

// client/src/openapi.ts is committed so the package builds on its own; it must be what the current OpenAPI
// document generates, so a change to an operation or schema without `npm run client:types` fails here.

describe('client/src/openapi.ts', () => {
  it('is what `npm run client:types` generates from the current document', async () => {
    const committed = fs.readFileSync(CLIENT_TYPES_FILE, 'utf8');
    const generated = await generateClientTypes();
    // toBe, not a diff of lines: a failure says to run the script
    expect(committed === generated, 'client/src/openapi.ts is stale: run `npm run client:types`').toBe(true);
  }, 60_000);
});
