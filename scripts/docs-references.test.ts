import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';

// Every document a file points to is in the repository: no design notes kept elsewhere (their names are
// built here so that this file does not match itself), no issue numbers, which mean nothing to a reader of
// the code. docs/ holds the project's own documents and is left out; so are the migrations, which are never
// edited once applied. The README stays a user's guide: the performance diary is in docs/performance.md, and
// what a contributor needs in CONTRIBUTING.md and docs/.

const OUTSIDE = ['api', 'ux', 'spec', 'style', 'plugins'].map((name) => `${name}.md`);
const forbidden = [
  new RegExp(`(^|[^\\w/.-])(${OUTSIDE.map((name) => name.replace('.', '\\.')).join('|')})\\b`),
  // the architecture document is named with its folder, docs/architecture.md
  new RegExp(`(^|[^\\w/.-])architecture\\.md`),
  new RegExp(`\\b${'issue'}s? #?\\d+`, 'i'),
];
const README_MOST_LINES = 350;
const LEFT_OUT = /^(docs\/|prisma\/migrations\/)/;

describe('references to documents', () => {
  it('name only documents in the repository, and no issue numbers', () => {
    const files = execFileSync('git', ['ls-files'], { encoding: 'utf8' })
      .split('\n')
      .filter((file) => file && !LEFT_OUT.test(file) && fs.existsSync(file) && !/\.(png|svg|ico|tgz)$/.test(file));
    const found: string[] = [];
    for (const file of files) {
      const text = fs.readFileSync(file, 'utf8');
      text.split('\n').forEach((line, index) => {
        if (forbidden.some((pattern) => pattern.test(line))) found.push(`${file}:${index + 1}: ${line.trim()}`);
      });
    }
    expect(found).toEqual([]);
  });

  it(`keep the README a guide of at most ${README_MOST_LINES} lines`, () => {
    const lines = fs.readFileSync('README.md', 'utf8').split('\n').length;
    expect(lines).toBeLessThanOrEqual(README_MOST_LINES);
  });
});
