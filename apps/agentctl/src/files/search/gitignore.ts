/**
 * The subset of gitignore(5) a workspace search needs: blank lines and `#` comments, `!`
 * negation, a trailing `/` for directories only, a leading or inner `/` anchoring to the
 * .gitignore's folder, `*`, `?`, `[...]` and `**`. The last matching rule wins; each folder's
 * .gitignore applies below that folder, after its ancestors' rules.
 */
interface IgnoreRule {
  regex: RegExp;
  negated: boolean;
  directoryOnly: boolean;
}

function globToRegExpSource(glob: string): string {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i] as string;
    if (c === '*') {
      if (glob[i + 1] === '*') {
        const atStart = i === 0 || glob[i - 1] === '/';
        const atEnd = i + 2 === glob.length;
        if (atStart && glob[i + 2] === '/') {
          out += '(?:.*/)?';
          i += 2;
          continue;
        }
        if (atStart && atEnd) {
          out += '.*';
          i += 1;
          continue;
        }
      }
      out += '[^/]*';
    } else if (c === '?') {
      out += '[^/]';
    } else if (c === '[') {
      const end = glob.indexOf(']', i + 2);
      if (end === -1) {
        out += '\\[';
        continue;
      }
      let body = glob.slice(i + 1, end).replace(/\\/g, '\\\\');
      if (body.startsWith('!')) body = `^${body.slice(1)}`;
      out += `[${body}]`;
      i = end;
    } else if (c === '\\' && i + 1 < glob.length) {
      out += `\\${glob[++i] as string}`.replace(/^\\([A-Za-z0-9])$/, '$1');
    } else {
      out += /[.+^${}()|\]\\/]/.test(c) ? `\\${c}` : c;
    }
  }
  return out;
}

export function parseGitignore(text: string): IgnoreRule[] {
  const rules: IgnoreRule[] = [];
  for (const rawLine of text.split(/\r?\n/)) {
    let line = rawLine.replace(/(?<!\\)\s+$/, '');
    if (line === '' || line.startsWith('#')) continue;
    let negated = false;
    if (line.startsWith('!')) {
      negated = true;
      line = line.slice(1);
    } else if (line.startsWith('\\#') || line.startsWith('\\!')) {
      line = line.slice(1);
    }
    const directoryOnly = line.endsWith('/');
    if (directoryOnly) line = line.slice(0, -1);
    if (line === '') continue;
    const anchored = line.includes('/');
    if (line.startsWith('/')) line = line.slice(1);
    const body = globToRegExpSource(line);
    try {
      rules.push({ regex: new RegExp(anchored ? `^${body}$` : `^(?:.*/)?${body}$`), negated, directoryOnly });
    } catch {
      // A rule git itself would not understand is skipped, not fatal to the search.
    }
  }
  return rules;
}

/** The rules in force in one folder: its ancestors' and its own, each relative to where it was read. */
export class IgnoreScope {
  private constructor(private readonly layers: ReadonlyArray<{ base: string; rules: IgnoreRule[] }>) {}

  static empty(): IgnoreScope {
    return new IgnoreScope([]);
  }

  /** The scope below a folder (`base`, relative to the workspace) whose .gitignore says `text`. */
  with(base: string, text: string | undefined): IgnoreScope {
    if (text === undefined) return this;
    const rules = parseGitignore(text);
    return rules.length === 0 ? this : new IgnoreScope([...this.layers, { base, rules }]);
  }

  /** `rel` is relative to the workspace root, with `/` separators. */
  ignores(rel: string, isDirectory: boolean): boolean {
    let ignored = false;
    for (const { base, rules } of this.layers) {
      const local = base === '' ? rel : rel.startsWith(`${base}/`) ? rel.slice(base.length + 1) : undefined;
      if (local === undefined) continue;
      for (const rule of rules) {
        if (rule.directoryOnly && !isDirectory) continue;
        if (rule.regex.test(local)) ignored = !rule.negated;
      }
    }
    return ignored;
  }
}
