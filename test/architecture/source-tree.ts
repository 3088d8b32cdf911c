// Reads the TypeScript sources under src/ with the compiler API: every file's relative imports
// (static `import`/`export ... from`, dynamic `import('...')`) and every function-like body's length.
// Used by the layering and size tests; pure reading, no type checking (fast: ~1 s for src/).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, posix, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** The repository root: this file runs as dist/test/architecture/source-tree.js. */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/** Every .ts file under `dir` (repository-relative, posix separators), sorted. */
export function listSources(dir = 'src'): string[] {
  const out: string[] = [];
  const walk = (rel: string): void => {
    for (const name of readdirSync(join(REPO_ROOT, rel)).sort()) {
      const child = posix.join(rel, name);
      if (statSync(join(REPO_ROOT, child)).isDirectory()) walk(child);
      else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) out.push(child);
    }
  };
  walk(dir);
  return out;
}

export function parseSource(file: string): ts.SourceFile {
  const text = readFileSync(join(REPO_ROOT, file), 'utf8');
  return ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
}

export interface ImportEdge {
  from: string; // repository-relative .ts file
  to: string; // repository-relative .ts file (resolved from the .js specifier)
  line: number;
  typeOnly: boolean;
}

/** The module specifiers of a file: static imports/exports and `import('x')` calls with a literal. */
function specifiersOf(sf: ts.SourceFile): { spec: string; line: number; typeOnly: boolean }[] {
  const found: { spec: string; line: number; typeOnly: boolean }[] = [];
  const lineOf = (n: ts.Node): number => sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1;
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier
      && ts.isStringLiteral(node.moduleSpecifier)) {
      const typeOnly = ts.isImportDeclaration(node) ? Boolean(node.importClause?.isTypeOnly) : node.isTypeOnly;
      found.push({ spec: node.moduleSpecifier.text, line: lineOf(node), typeOnly });
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [arg] = node.arguments;
      if (arg && ts.isStringLiteralLike(arg)) found.push({ spec: arg.text, line: lineOf(node), typeOnly: false });
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)
      && ts.isStringLiteral(node.argument.literal)) {
      found.push({ spec: node.argument.literal.text, line: lineOf(node), typeOnly: true });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

/** Relative imports of every file in `files`, resolved to the .ts file they name. */
export function importEdges(files: string[]): ImportEdge[] {
  const known = new Set(files);
  const edges: ImportEdge[] = [];
  for (const from of files) {
    for (const { spec, line, typeOnly } of specifiersOf(parseSource(from))) {
      if (!spec.startsWith('.')) continue; // packages and node: builtins
      const target = posix.normalize(posix.join(posix.dirname(from), spec));
      const candidates = [target.replace(/\.js$/, '.ts'), `${target}.ts`, posix.join(target, 'index.ts')];
      const to = candidates.find((c) => known.has(c));
      if (!to) throw new Error(`${from}:${line}: import '${spec}' names no file under src/`);
      edges.push({ from, to, line, typeOnly });
    }
  }
  return edges;
}

/** Import circles between files (strongly connected components of more than one file, or a self-import). */
export function importCircles(files: string[], edges: ImportEdge[]): string[][] {
  const next = new Map<string, string[]>(files.map((f) => [f, []]));
  for (const e of edges) next.get(e.from)!.push(e.to);
  // Tarjan's algorithm, iterative (src/ has ~600 files; recursion would be fine, but stays bounded).
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  for (const root of files) {
    if (index.has(root)) continue;
    const work: { node: string; i: number }[] = [{ node: root, i: 0 }];
    index.set(root, counter); low.set(root, counter++); stack.push(root); onStack.add(root);
    while (work.length) {
      const top = work[work.length - 1]!;
      const succ = next.get(top.node)!;
      if (top.i < succ.length) {
        const w = succ[top.i++]!;
        if (!index.has(w)) {
          index.set(w, counter); low.set(w, counter++); stack.push(w); onStack.add(w);
          work.push({ node: w, i: 0 });
        } else if (onStack.has(w)) low.set(top.node, Math.min(low.get(top.node)!, index.get(w)!));
        continue;
      }
      work.pop();
      if (work.length) {
        const parent = work[work.length - 1]!.node;
        low.set(parent, Math.min(low.get(parent)!, low.get(top.node)!));
      }
      if (low.get(top.node) === index.get(top.node)) {
        const component: string[] = [];
        let w: string;
        do { w = stack.pop()!; onStack.delete(w); component.push(w); } while (w !== top.node);
        if (component.length > 1 || succ.includes(top.node)) circles.push(component.sort());
      }
    }
  }
  return circles;
}

export function repoRelative(absolute: string): string {
  return relative(REPO_ROOT, absolute).split('\\').join('/');
}

export interface FunctionSize {
  file: string;
  /** The function's name, or `<arrow>`/`<function>` with its line when it has none. */
  name: string;
  line: number;
  /** Lines of its body, braces included. */
  lines: number;
}

function nameOf(node: ts.FunctionLikeDeclaration, sf: ts.SourceFile): string {
  if (node.name && (ts.isIdentifier(node.name) || ts.isStringLiteral(node.name))) return node.name.text;
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  if (ts.isPropertyAssignment(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  return ts.isArrowFunction(node) ? '<arrow>' : '<function>';
}

/** Every function, method, accessor, constructor and arrow function with a block body, with its length. */
export function functionSizes(file: string): FunctionSize[] {
  const sf = parseSource(file);
  const out: FunctionSize[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const body = node.body as ts.Node;
      const start = sf.getLineAndCharacterOfPosition(body.getStart(sf)).line;
      const end = sf.getLineAndCharacterOfPosition(body.getEnd()).line;
      out.push({ file, name: nameOf(node as ts.FunctionLikeDeclaration, sf), line: start + 1, lines: end - start + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

/** Lines of a file (a final newline does not count as a line). */
export function lineCount(file: string): number {
  const text = readFileSync(join(REPO_ROOT, file), 'utf8');
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}
