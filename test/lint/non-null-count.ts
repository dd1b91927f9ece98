import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/**
 * Counts non-null assertions (`value!`) per folder of src by walking each file's TypeScript AST,
 * so a `!=` or a `!` in a string or comment is never counted. Run with `tsx test/lint/non-null-count.ts`.
 */
export interface NonNullSite {
  file: string;
  line: number;
  text: string;
}

const tsFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return tsFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });

export const nonNullSites = (dir: string): NonNullSite[] => {
  const sites: NonNullSite[] = [];
  for (const file of tsFiles(dir)) {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      if (ts.isNonNullExpression(node)) {
        const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
        sites.push({ file, line: line + 1, text: node.getText(source) });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return sites;
};

const isMain = process.argv[1] !== undefined && path.resolve(process.argv[1]) === import.meta.filename;
if (isMain) {
  const src = path.resolve(import.meta.dirname, '../../src');
  const verbose = process.argv.includes('--sites');
  for (const folder of readdirSync(src, { withFileTypes: true }).filter((e) => e.isDirectory())) {
    const sites = nonNullSites(path.join(src, folder.name));
    if (sites.length === 0) continue;
    console.log(`${String(sites.length).padStart(4)}  src/${folder.name}`);
    if (verbose) for (const s of sites) console.log(`        ${path.relative(src, s.file)}:${s.line}  ${s.text}`);
  }
}
