import type { DocumentFilter, DocumentSelector } from 'vscode-languageserver-protocol';
import { fileUriToPath } from '@kandev/protocol';

/** What a selector is matched against: the server-facing view of one document. */
export interface SelectorTarget {
  /** LSP languageId (`typescriptreact`, `python`, ...). */
  languageId: string;
  /** Canonical task-host file URI. */
  uri: string;
}

/** Does a registration's documentSelector cover this document? `null` means every document. */
export function matchesDocumentSelector(selector: DocumentSelector | null | undefined, target: SelectorTarget): boolean {
  if (selector === null || selector === undefined) return true;
  return selector.some((filter) => matchesFilter(filter, target));
}

function matchesFilter(filter: string | DocumentFilter | Record<string, unknown>, target: SelectorTarget): boolean {
  if (typeof filter === 'string') return filter === target.languageId;
  const f = filter as { language?: unknown; scheme?: unknown; pattern?: unknown; notebook?: unknown };
  if (f.notebook !== undefined) return false; // notebook cells are not edited here
  if (f.language === undefined && f.scheme === undefined && f.pattern === undefined) return false;
  if (typeof f.language === 'string' && f.language !== target.languageId) return false;
  const scheme = target.uri.slice(0, Math.max(0, target.uri.indexOf(':')));
  if (typeof f.scheme === 'string' && f.scheme !== scheme) return false;
  if (f.pattern !== undefined) {
    let path: string;
    try {
      path = fileUriToPath(target.uri);
    } catch {
      return false;
    }
    if (!matchesGlobPattern(f.pattern, path)) return false;
  }
  return true;
}

function matchesGlobPattern(pattern: unknown, path: string): boolean {
  if (typeof pattern === 'string') return globToRegExp(pattern).test(path);
  if (typeof pattern === 'object' && pattern !== null) {
    const p = pattern as { baseUri?: unknown; pattern?: unknown };
    if (typeof p.pattern !== 'string') return false;
    const base =
      typeof p.baseUri === 'string' ? p.baseUri : typeof p.baseUri === 'object' && p.baseUri !== null ? (p.baseUri as { uri?: unknown }).uri : undefined;
    if (typeof base !== 'string') return false;
    let basePath: string;
    try {
      basePath = fileUriToPath(base).replace(/\/+$/, '');
    } catch {
      return false;
    }
    if (!path.startsWith(`${basePath}/`)) return false;
    return globToRegExp(p.pattern).test(path.slice(basePath.length + 1));
  }
  return false;
}

/**
 * LSP glob (`*`, `**`, `?`, `{a,b}`, `[a-z]`) to a RegExp over a whole POSIX path. A pattern
 * without a leading `/` may match at any folder boundary, as editors match `*.ts` or `src/**`.
 */
export function globToRegExp(glob: string): RegExp {
  let out = '';
  let inGroup = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i] as string;
    if (c === '*') {
      if (glob[i + 1] === '*') {
        const slashAfter = glob[i + 2] === '/';
        out += slashAfter ? '(?:.*/)?' : '.*';
        i += slashAfter ? 2 : 1;
      } else {
        out += '[^/]*';
      }
    } else if (c === '?') out += '[^/]';
    else if (c === '{') {
      inGroup++;
      out += '(?:';
    } else if (c === '}' && inGroup > 0) {
      inGroup--;
      out += ')';
    } else if (c === ',' && inGroup > 0) out += '|';
    else if (c === '[') {
      const end = glob.indexOf(']', i + 1);
      if (end < 0) out += '\\[';
      else {
        const body = glob
          .slice(i + 1, end)
          .replace(/^!/, '^')
          .replace(/\\/g, '\\\\');
        out += `[${body}]`;
        i = end;
      }
    } else out += c.replace(/[.+^$()|\\/\]]/g, (m) => `\\${m}`);
  }
  const anchored = glob.startsWith('/') ? `^${out}$` : `(?:^|/)${out}$`;
  return new RegExp(anchored);
}
