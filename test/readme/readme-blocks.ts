import fs from 'node:fs';

// The shell blocks of the guides a reader pastes from (README.md, then docs/testing.md, which goes on in
// the README's shell): every ```sh block, in order. A comment on the line
// above a block says how the test runs it when not in the foreground:
//   <!-- readme-test: server -->            a server, left running (the next server block replaces it, as
//                                           Ctrl-C and a new command would); ready when /readyz answers
//   <!-- readme-test: background -->        a process that runs until stopped (a webhook handler, listen)
//   <!-- readme-test: <anything else> -->   not run; the comment says why (kept to a few)

export const GUIDES = ['README.md', 'docs/testing.md'];

export type ReadmeBlock = {
  /** `file:line` of the opening fence, lines from 1 */
  where: string;
  code: string;
  mode: 'run' | 'server' | 'background' | 'not run';
  note?: string;
};

export function readmeShellBlocks(root = '.'): ReadmeBlock[] {
  return GUIDES.flatMap((file) => shellBlocks(file, fs.readFileSync(`${root}/${file}`, 'utf8')));
}

function shellBlocks(file: string, text: string): ReadmeBlock[] {
  const lines = text.split('\n');
  const blocks: ReadmeBlock[] = [];
  for (let index = 0; index < lines.length; index++) {
    if (lines[index] !== '```sh') continue;
    const end = lines.indexOf('```', index + 1);
    const marker = /^<!-- readme-test: (.+) -->$/.exec(lines[index - 1] ?? '')?.[1];
    const mode = marker === undefined ? 'run' : marker === 'server' || marker === 'background' ? marker : 'not run';
    blocks.push({
      where: `${file}:${index + 1}`,
      code: lines.slice(index + 1, end).join('\n'),
      mode,
      ...(mode === 'not run' ? { note: marker } : {}),
    });
    index = end;
  }
  return blocks;
}
