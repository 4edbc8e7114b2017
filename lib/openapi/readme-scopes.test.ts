import fs from 'node:fs';
import { expect, it } from 'vitest';
import { SCOPES } from '@/lib/api-keys/scopes';

// README's Administration names the scopes `create-key --scopes` takes, so none can be added unlisted.
it("README's Administration names every scope", () => {
  const readme = fs.readFileSync('README.md', 'utf8');
  const administration = readme.slice(readme.indexOf('## Administration'), readme.indexOf('## Configuration'));
  expect(SCOPES.filter((scope) => !administration.includes(`\`${scope}\``))).toEqual([]);
  expect(administration).toMatch(/leaving `--scopes` out grants all/);
});
