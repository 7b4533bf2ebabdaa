import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/** Attributes whose values a person reads (or hears): they must come from the catalogs too. */
const PERSON_FACING_ATTRIBUTES = new Set(['title', 'aria-label', 'aria-description', 'aria-valuetext', 'aria-roledescription', 'placeholder', 'alt', 'label']);
const hasWords = (text: string) => /\p{L}/u.test(text);

/** Person-facing text written straight into JSX instead of coming through t(). */
export function hardcodedText(fileName: string, source: string): string[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const found: string[] = [];
  const where = (node: ts.Node) => `${fileName}:${file.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node) && hasWords(node.text)) found.push(`${where(node)} text "${node.text.trim()}"`);
    if (ts.isJsxAttribute(node) && PERSON_FACING_ATTRIBUTES.has(node.name.getText(file))) {
      const init = node.initializer;
      const literal = init && ts.isJsxExpression(init) ? init.expression : init;
      if (literal && (ts.isStringLiteral(literal) || ts.isNoSubstitutionTemplateLiteral(literal)) && hasWords(literal.text)) {
        found.push(`${where(node)} ${node.name.getText(file)}="${literal.text}"`);
      }
    }
    if (ts.isJsxExpression(node) && node.expression && !ts.isJsxAttribute(node.parent)) {
      const e = node.expression;
      if (
        (ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e) || ts.isTemplateExpression(e)) &&
        hasWords(e.getText(file).replace(/\$\{[^}]*\}/g, ''))
      ) {
        found.push(`${where(node)} expression ${e.getText(file)}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

function tsxFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return tsxFiles(path);
    return name.endsWith('.tsx') && !name.endsWith('.test.tsx') ? [path] : [];
  });
}

describe('no UI string bypasses the catalogs', () => {
  const src = join(import.meta.dirname, '..');
  const files = [...tsxFiles(join(src, 'components')), ...tsxFiles(join(src, 'app'))];

  it('finds the components to check', () => {
    expect(files.length).toBeGreaterThan(15);
    expect(files.some((f) => f.endsWith('LspStatusDetails.tsx'))).toBe(true);
  });

  it('the scanner catches JSX text, person-facing attributes and string expressions (and leaves symbols and t() alone)', () => {
    const bad = `export const A = () => <div title="Close it" aria-label={'Stop'}>Hello {'world'} {\`Ready\`}<b>{t('x')}</b> × ● {' '}</div>;`;
    expect(hardcodedText('bad.tsx', bad)).toEqual([
      'bad.tsx:1 title="Close it"',
      'bad.tsx:1 aria-label="Stop"',
      'bad.tsx:1 text "Hello"',
      "bad.tsx:1 expression 'world'",
      'bad.tsx:1 expression `Ready`',
    ]);
    expect(hardcodedText('ok.tsx', `export const B = () => <p data-testid="lsp-status" className="x" aria-label={t('a')}>{t('b', { n: 1 })} ×</p>;`)).toEqual(
      [],
    );
  });

  it('every component and app view takes its copy from t()', () => {
    const violations = files.flatMap((f) => hardcodedText(relative(src, f), readFileSync(f, 'utf8')));
    expect(violations).toEqual([]);
  });
});
