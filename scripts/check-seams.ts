// npm run seams: every import of module code (static, `import type`, `export … from`, dynamic import(), import()
// types) that reaches another module reaches its contract.ts; contracts import only the layers below; nothing in
// src/modules imports a module's index.ts. Prints each violation and the count; exits 1 on any.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { contractSides, seamViolation } from './seams-rule.js';

const SRC = path.resolve(import.meta.dirname, '..', 'src');

const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(full) : entry.name.endsWith('.ts') ? [full] : [];
  });

/** Every relative module specifier of the file, with its line. */
function importsOf(file: string): { specifier: string; line: number }[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: { specifier: string; line: number }[] = [];
  const add = (node: ts.Node, literal: ts.Node | undefined) => {
    if (literal && ts.isStringLiteralLike(literal))
      found.push({ specifier: literal.text, line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1 });
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) add(node, node.moduleSpecifier);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference))
      add(node, node.moduleReference.expression);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) add(node, node.arguments[0]);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) add(node, node.argument.literal);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found.filter((i) => i.specifier.startsWith('.'));
}

/** The file a relative specifier names, relative to src/ (`./x.js` → `x.ts`, a directory → its index.ts). */
function resolveTarget(from: string, specifier: string): string {
  let target = path.resolve(path.dirname(from), specifier);
  if (target.endsWith('.js')) target = `${target.slice(0, -3)}.ts`;
  else if (!target.endsWith('.ts') && !target.endsWith('.json')) target = path.join(target, 'index.ts');
  return path.relative(SRC, target).split(path.sep).join('/');
}

const relative = (file: string) => path.relative(SRC, file).split(path.sep).join('/');
const moduleFiles = filesUnder(path.join(SRC, 'modules'));
const imports = new Map(
  moduleFiles.map((file) => [relative(file), importsOf(file).map((i) => ({ ...i, target: resolveTarget(file, i.specifier) }))]),
);
// A contract's own-module imports are held to the contract's rule too (what it re-exports is what it offers).
const side = contractSides([...imports.keys()], (file) => (imports.get(file) ?? []).map((i) => i.target));
const violations: string[] = [];
for (const [from, list] of imports) {
  for (const { target, line } of list) {
    const why = seamViolation(from, target, side.has(from));
    if (why) violations.push(`src/${from}:${line} → src/${target}: ${why}`);
  }
}
for (const violation of violations) console.log(violation);
console.log(`${violations.length} seam violation${violations.length === 1 ? '' : 's'}`);
process.exit(violations.length > 0 ? 1 : 0);
