import fs from 'node:fs';
import { API_OPERATIONS, type ApiOperation } from './operations';

// The request bodies of the README's (and docs/testing.md's) curl commands, each with the operation it calls, so a test can hold
// them to the document as a merchant's generated client would.

export type ReadmeBody = { operation: ApiOperation; body: unknown; command: string };

export function readmeRequestBodies(guides = ['README.md', 'docs/testing.md']): ReadmeBody[] {
  const readme = guides.map((guide) => fs.readFileSync(guide, 'utf8')).join('\n');
  const blocks = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1].replace(/\\\n\s*/g, ' '));
  // a command ends at a line that starts unindented (a body's lines are indented); `ID=$(curl …` keeps what it answers
  const commands = blocks
    .flatMap((block) => block.split(/\n(?=\S)/))
    .filter((line) => /^([A-Z_]+=\$\()?curl /.test(line));
  return commands.flatMap((command) => {
    const data = /-d '([^']*)'/.exec(command);
    if (!data) return [];
    const path = /(?:https?:\/\/[^/\s]+|\$SANDBOX_URL)(\/v1\/\S+)/.exec(command)?.[1] ?? '';
    const method = /-X (\w+)/.exec(command)?.[1] ?? 'POST';
    const operation = API_OPERATIONS.find(
      (candidate) =>
        candidate.method === method &&
        new RegExp(`^${candidate.path.replace('{id}', '(?:[a-z]+_[^/]+|\\$[A-Z_]+)')}$`).test(path),
    );
    if (!operation) throw new Error(`README: no operation for ${method} ${path}`);
    return [{ operation, body: JSON.parse(data[1]), command }];
  });
}
