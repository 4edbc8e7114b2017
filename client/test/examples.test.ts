import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// client/examples/integration.ts is a merchant's integration: it must compile under --strict with no casts,
// against the client's sources (examples/tsconfig.json maps the package name to them), as must the
// client README's examples (quick-start.ts, webhook-route.ts). The package test compiles the integration
// again against the built, packed package.

const CLIENT = path.resolve(import.meta.dirname, '..');

export function diagnostics(configFile: string): string[] {
  const config = ts.getParsedCommandLineOfConfigFile(
    configFile,
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
  );
  if (!config) throw new Error(`cannot read ${configFile}`);
  const program = ts.createProgram(config.fileNames, { ...config.options, noEmit: true });
  return ts
    .getPreEmitDiagnostics(program)
    .map((diagnostic) => `TS${diagnostic.code}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`);
}

describe('the sample integration', () => {
  it('compiles with tsc --strict', () => {
    const configFile = path.join(CLIENT, 'examples/tsconfig.json');
    expect(ts.readConfigFile(configFile, ts.sys.readFile).config.compilerOptions.strict).toBe(true);
    expect(diagnostics(configFile)).toEqual([]);
  }, 60_000);

  it('uses no casts, no non-null assertions and no any', () => {
    const file = path.join(CLIENT, 'examples/integration.ts');
    const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
    const found: string[] = [];
    const visit = (node: ts.Node) => {
      const isConstAssertion = ts.isAsExpression(node) && node.type.getText() === 'const';
      if ((ts.isAsExpression(node) && !isConstAssertion) || ts.isTypeAssertionExpression(node))
        found.push(node.getText());
      if (ts.isNonNullExpression(node) || node.kind === ts.SyntaxKind.AnyKeyword) found.push(node.getText());
      ts.forEachChild(node, visit);
    };
    visit(source);
    expect(found).toEqual([]);
  });

  it('is refused when it misuses the client, so the compile is a real check', () => {
    const folder = fs.mkdtempSync(path.join(CLIENT, 'examples/.bad-'));
    try {
      const source = fs
        .readFileSync(path.join(CLIENT, 'examples/integration.ts'), 'utf8')
        .replace('amount: 3750,', "amount: '3750',")
        .replace('{ active: false }', '{ activ: false }');
      fs.writeFileSync(path.join(folder, 'integration.ts'), source);
      fs.writeFileSync(
        path.join(folder, 'tsconfig.json'),
        JSON.stringify({
          extends: '../tsconfig.json',
          compilerOptions: { paths: { '@sandbox-payments/client': ['../../src/index.ts'] } },
          include: ['integration.ts'],
        }),
      );
      const errors = diagnostics(path.join(folder, 'tsconfig.json'));
      expect(errors).toEqual([expect.stringMatching(/^TS2322: .*number/), expect.stringMatching(/^TS2561: .*activ/)]);
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  }, 60_000);
});

describe("the client README's examples", () => {
  it('are the compiled files examples/quick-start.ts and examples/webhook-route.ts', () => {
    const readme = fs.readFileSync(path.join(CLIENT, 'README.md'), 'utf8');
    for (const file of ['quick-start.ts', 'webhook-route.ts'])
      expect(readme).toContain('```ts\n' + fs.readFileSync(path.join(CLIENT, 'examples', file), 'utf8') + '```');
  });
});
