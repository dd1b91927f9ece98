import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/**
 * Lists functions longer than a limit by walking each file's TypeScript AST. A function's length
 * is every line from its first to its last, blank lines and comments included, and a lint
 * exemption does not hide it: the measure is the one a reader meets. Nested functions are counted
 * on their own as well as inside their parent. Run with `tsx test/lint/function-length-count.ts`
 * (`--sites` lists each one).
 */
export interface LongFunction {
  file: string;
  line: number;
  name: string;
  lines: number;
}

export const FUNCTION_LINE_LIMIT = 60;

const tsFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return tsFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });

const nameOf = (node: ts.FunctionLikeDeclaration, source: ts.SourceFile): string => {
  if (node.name !== undefined) return node.name.getText(source);
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) return parent.name.getText(source);
  if (ts.isCallExpression(parent)) return `callback of ${parent.expression.getText(source).slice(0, 40)}`;
  return '(anonymous)';
};

export const longFunctions = (dir: string, limit = FUNCTION_LINE_LIMIT): LongFunction[] => {
  const found: LongFunction[] = [];
  for (const file of tsFiles(dir)) {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
        const fn = node as ts.FunctionLikeDeclaration;
        const first = source.getLineAndCharacterOfPosition(fn.getStart(source)).line;
        const last = source.getLineAndCharacterOfPosition(fn.getEnd()).line;
        const lines = last - first + 1;
        if (lines > limit) found.push({ file, line: first + 1, name: nameOf(fn, source), lines });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
};

const isMain = process.argv[1] !== undefined && path.resolve(process.argv[1]) === import.meta.filename;
if (isMain) {
  const src = path.resolve(import.meta.dirname, '../../src');
  const verbose = process.argv.includes('--sites');
  let total = 0;
  for (const folder of readdirSync(src, { withFileTypes: true }).filter((e) => e.isDirectory())) {
    const sites = longFunctions(path.join(src, folder.name));
    total += sites.length;
    if (sites.length === 0) continue;
    console.log(`${String(sites.length).padStart(4)}  src/${folder.name}`);
    if (verbose)
      for (const s of sites)
        console.log(`        ${path.relative(src, s.file)}:${s.line}  ${s.name} (${s.lines} lines)`);
  }
  console.log(`${String(total).padStart(4)}  in all`);
}
