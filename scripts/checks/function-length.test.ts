// No function is over 80 lines: a component, a handler or a script's step, and the helpers it
// calls, can each be read on one screen. Parses every module of the app (src/), the Edge
// Functions (supabase/functions), the scripts and the stand-in (packages/supabase-stand-in) with
// the TypeScript compiler; tests, their fixtures and type declarations are not counted.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const LIMIT = 80;
const root = path.resolve(import.meta.dirname, '..', '..');
const ROOTS = ['src', 'supabase/functions', 'scripts', 'packages/supabase-stand-in'];

const SCRIPT_KINDS: Record<string, ts.ScriptKind> = {
  '.ts': ts.ScriptKind.TS,
  '.mts': ts.ScriptKind.TS,
  '.tsx': ts.ScriptKind.TSX,
  '.js': ts.ScriptKind.JS,
  '.mjs': ts.ScriptKind.JS,
  '.jsx': ts.ScriptKind.JSX,
};

/** Whether a file is a module the rule counts: source, not a test, a fixture or a declaration. */
export function counted(relativePath: string): boolean {
  const parts = relativePath.split(/[\\/]/);
  const name = parts.at(-1) ?? '';
  if (parts.some((part) => part === 'fixtures' || part === 'node_modules' || part.startsWith('.'))) return false;
  if (/\.(test|spec)\.[cm]?[jt]sx?$/.test(name) || /\.d\.[cm]?ts$/.test(name)) return false;
  return path.extname(name) in SCRIPT_KINDS;
}

/** Every counted module under `dir`, as paths relative to the repository root. */
function modules(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) return counted(`${relative}/x.ts`) ? modules(relative) : [];
    return counted(relative) ? [relative] : [];
  });
}

/** A function's name: its own, else the variable, property or call's variable it is assigned to. */
function nameOf(node: ts.FunctionLikeDeclaration): string {
  if (node.name && (ts.isIdentifier(node.name) || ts.isStringLiteral(node.name))) return node.name.text;
  let parent: ts.Node = node.parent;
  // `const X = memo(function () {…})`, `const X = forwardRef((props, ref) => {…})`
  while (ts.isCallExpression(parent) || ts.isParenthesizedExpression(parent) || ts.isAsExpression(parent)) {
    parent = parent.parent;
  }
  if ((ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) && ts.isIdentifier(parent.name)) {
    return parent.name.text;
  }
  return '(anonymous)';
}

/** `file:line name (n lines)` for each function longer than `limit` lines. */
export function longFunctions(file: string, text: string, limit = LIMIT): string[] {
  const kind = SCRIPT_KINDS[path.extname(file)] ?? ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = end - start + 1;
      if (lines > limit) found.push(`${file}:${start + 1} ${nameOf(node)} (${lines} lines)`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('function length', () => {
  it('finds a function over the limit in each kind of module (the check itself works)', () => {
    const body = Array.from({ length: LIMIT }, (_, i) => `  const a${i} = ${i};`).join('\n');
    expect(longFunctions('x.mjs', `function long() {\n${body}\n}\nconst short = () => 1;`)).toEqual([
      'x.mjs:1 long (82 lines)',
    ]);
    expect(
      longFunctions('x.ts', `export const handler = async (req: Request): Promise<void> => {\n${body}\n};`),
    ).toEqual(['x.ts:1 handler (82 lines)']);
    // JSX parses only as TSX: as plain TS, `<div>` would be a type assertion and the parse would go wrong.
    expect(
      longFunctions(
        'x.tsx',
        `export function View({ a }: { a: string }) {\n${body}\n  return <div title={a}>{a}</div>;\n}`,
      ),
    ).toEqual(['x.tsx:1 View (83 lines)']);
    expect(longFunctions('x.tsx', `const Short = () => <p>{1}</p>;`)).toEqual([]);
  });

  it('counts source modules, not tests, fixtures or declarations', () => {
    expect(counted('src/features/auth/components/auth-view.tsx')).toBe(true);
    expect(counted('supabase/functions/account/handler.ts')).toBe(true);
    expect(counted('packages/supabase-stand-in/server.mjs')).toBe(true);
    expect(counted('src/features/auth/components/auth-view.test.tsx')).toBe(false);
    expect(counted('e2e/landing.spec.ts')).toBe(false);
    expect(counted('scripts/checks/fixtures/budgets/src/pages/sized.tsx')).toBe(false);
    expect(counted('supabase/functions/tsc-deno-shim.d.ts')).toBe(false);
    expect(counted('src/content/resource-folders.json')).toBe(false);
  });

  it(`has no function over ${LIMIT} lines`, () => {
    const files = ROOTS.flatMap(modules);
    for (const dir of ROOTS)
      expect(
        files.some((file) => file.startsWith(`${dir}/`)),
        dir,
      ).toBe(true);
    const found = files.flatMap((file) => longFunctions(file, readFileSync(path.join(root, file), 'utf8')));
    expect(found).toEqual([]);
  });
});
