#!/usr/bin/env node
// Fails when an app spells a piece of the wire contract itself instead of importing it from
// packages/protocol: an HTTP or WebSocket path as a string (`'/api/tasks'`, `` `/lsp/${id}` ``) or a
// WebSocket close code as a bare number (`socket.close(1007)`, `type Code = 1000 | 1001`). Two
// spellings of one path or code drift apart silently; one constant cannot.
//
// What counts comes from the protocol itself: a path is any literal starting with one of the first
// segments of the paths packages/protocol declares (routes.ts, taskHostPaths.ts), and a close code
// is any number closeCodes.ts declares, where it stands as a close code (a close call's argument, a
// comparison or field named for a code, a literal type). Comments are never read.
//
// Test files (*.test.ts, *.test.tsx) are left out on purpose: a test that spells `4005` or
// `/api/tasks` is the independent witness that the constant still says what the other side expects;
// written with the constant, a changed constant would pass unnoticed.
//   node scripts/check-contract.mjs [root ...]   (default: every app's src/)
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rootArgs, sourcesUnder } from './lib/sourceRoots.mjs';
import ts from 'typescript';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const protocolDir = join(repo, 'packages/protocol/src');
const USAGE = `usage: node scripts/check-contract.mjs [root ...]

Fails (exit 1) on a route spelled as a string or a close code spelled as a number in the
non-test sources under each root; both must come from packages/protocol.
With no root, checks every app's src/ (apps/*/src).

options:
  -h, --help   print this text and exit`;

const roots =
  rootArgs('check-contract', USAGE) ??
  readdirSync(join(repo, 'apps'))
    .map((name) => join(repo, 'apps', name, 'src'))
    .filter(existsSync);

const parse = (file) =>
  ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);

function walk(node, visit) {
  visit(node);
  ts.forEachChild(node, (child) => walk(child, visit));
}

/** The first segments (`api`, `lsp`, `metrics`) of every path the protocol declares. */
function protocolPathSegments() {
  const segments = new Set();
  for (const name of ['routes.ts', 'taskHostPaths.ts']) {
    walk(parse(join(protocolDir, name)), (node) => {
      if (!ts.isStringLiteral(node)) return;
      const match = /^\/([A-Za-z][\w-]*)(?:\/|$)/.exec(node.text);
      if (match) segments.add(match[1]);
    });
  }
  if (segments.size === 0) throw new Error('check-contract: packages/protocol declares no path');
  return segments;
}

/** Every number closeCodes.ts declares (the codes, the bad-input codes, the reserved ones). */
function protocolCloseCodes() {
  const codes = new Set();
  walk(parse(join(protocolDir, 'closeCodes.ts')), (node) => {
    if (ts.isNumericLiteral(node)) codes.add(Number(node.text));
  });
  if (codes.size === 0) throw new Error('check-contract: packages/protocol declares no close code');
  return codes;
}

const segments = protocolPathSegments();
const closeCodes = protocolCloseCodes();
const segmentAlternation = [...segments].map((s) => s.replace(/[-]/g, '\\-')).join('|');
// A path starts the literal or follows a non-path character (`${origin}/lsp/...` has `}` before it).
const PATH_IN_TEXT = new RegExp(`(?:^|[^\\w.\\-/])\\/(?:${segmentAlternation})(?=\\/|\\?|$)`);
const PATH_IN_REGEX = new RegExp(`\\\\\\/(?:${segmentAlternation})(?=\\\\\\/|\\?|\\$|\\b)`);
const CODE_NAME = /code/i;
const CLOSE_CALL = /clos|abrupt/i;

function nameOf(node) {
  if (!node) return '';
  if (ts.isIdentifier(node) || ts.isPrivateIdentifier(node) || ts.isStringLiteral(node)) return node.text;
  if (ts.isPropertyAccessExpression(node)) return node.name.text;
  if (ts.isElementAccessExpression(node)) return nameOf(node.argumentExpression);
  if (ts.isCallExpression(node)) return nameOf(node.expression);
  return node.getText();
}

const COMPARISON = new Set([
  ts.SyntaxKind.EqualsEqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsEqualsToken,
  ts.SyntaxKind.EqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsToken,
]);

/** Why a numeric literal of a close code's value stands there as a close code, or undefined. */
function closeCodeUse(literal) {
  let node = literal;
  let parent = node.parent;
  // Look through wrappers that keep the value: (x), [x], x as T, a ? x : y, x ?? y.
  while (
    ts.isParenthesizedExpression(parent) ||
    ts.isArrayLiteralExpression(parent) ||
    ts.isAsExpression(parent) ||
    ts.isSatisfiesExpression(parent) ||
    ts.isConditionalExpression(parent) ||
    (ts.isBinaryExpression(parent) && !COMPARISON.has(parent.operatorToken.kind)) ||
    ts.isPrefixUnaryExpression(parent)
  ) {
    node = parent;
    parent = parent.parent;
  }
  if (ts.isLiteralTypeNode(parent)) return 'a literal type';
  if (ts.isCallExpression(parent) && parent.arguments.includes(node) && CLOSE_CALL.test(nameOf(parent.expression))) {
    return `an argument of ${nameOf(parent.expression)}()`;
  }
  if (ts.isBinaryExpression(parent) && COMPARISON.has(parent.operatorToken.kind)) {
    const other = parent.left === node ? parent.right : parent.left;
    if (CODE_NAME.test(nameOf(other))) return `compared with ${nameOf(other)}`;
  }
  if (
    (ts.isPropertyAssignment(parent) || ts.isVariableDeclaration(parent) || ts.isParameter(parent) || ts.isPropertyDeclaration(parent)) &&
    parent.initializer === node
  ) {
    if (CODE_NAME.test(nameOf(parent.name))) return `the value of ${nameOf(parent.name)}`;
  }
  if (ts.isCaseClause(parent) && CODE_NAME.test(nameOf(parent.parent.parent.expression))) return `a case of ${nameOf(parent.parent.parent.expression)}`;
  return undefined;
}

function isModuleSpecifier(node) {
  const parent = node.parent;
  if ((ts.isImportDeclaration(parent) || ts.isExportDeclaration(parent)) && parent.moduleSpecifier === node) return true;
  return ts.isCallExpression(parent) && parent.expression.kind === ts.SyntaxKind.ImportKeyword;
}

function findingsIn(file) {
  const source = parse(file);
  const found = [];
  const at = (node) => source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
  walk(source, (node) => {
    if (
      ts.isStringLiteral(node) ||
      ts.isNoSubstitutionTemplateLiteral(node) ||
      ts.isTemplateHead(node) ||
      ts.isTemplateMiddle(node) ||
      ts.isTemplateTail(node)
    ) {
      if (!isModuleSpecifier(node) && PATH_IN_TEXT.test(node.text)) found.push({ line: at(node), what: `route spelled as a string: ${node.getText(source)}` });
    } else if (ts.isRegularExpressionLiteral(node)) {
      if (PATH_IN_REGEX.test(node.text)) found.push({ line: at(node), what: `route spelled in a pattern: ${node.text}` });
    } else if (ts.isNumericLiteral(node) && closeCodes.has(Number(node.text))) {
      const use = closeCodeUse(node);
      if (use) found.push({ line: at(node), what: `close code ${node.text} spelled as a number (${use})` });
    }
  });
  return found;
}

let files = 0;
let problems = 0;
for (const root of roots) {
  for (const file of sourcesUnder(root)) {
    files++;
    for (const finding of findingsIn(file)) {
      problems++;
      console.error(`${relative(process.cwd(), file)}:${finding.line}: ${finding.what}; import it from @kandev/protocol`);
    }
  }
}
if (problems > 0) {
  console.error(`check-contract: ${problems} contract literal(s) in ${files} files`);
  process.exit(1);
}
console.log(`check-contract: no route or close code literal in ${files} files`);
