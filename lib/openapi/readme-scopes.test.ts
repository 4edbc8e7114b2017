import fs from 'node:fs';
import { expect, it } from 'vitest';
import { SCOPES } from '@/lib/api-keys/scopes';

// The CLI's guide (docs/cli.md, where README's Administration points) names the scopes
// `create-key --scopes` takes, so none can be added unlisted.
it('the CLI guide names every scope create-key takes', () => {
  const guide = fs.readFileSync('docs/cli.md', 'utf8');
  expect(SCOPES.filter((scope) => !guide.includes(`\`${scope}\``))).toEqual([]);
  expect(guide).toMatch(/leaving `--scopes` out grants all/);
  expect(fs.readFileSync('README.md', 'utf8')).toContain(
    '[docs/cli.md](docs/cli.md) lists what each takes, the scopes',
  );
});
