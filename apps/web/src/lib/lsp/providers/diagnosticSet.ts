import type { Diagnostic } from 'vscode-languageserver-protocol';

/**
 * The diagnostics of one connection generation, per document and per source: `push` for
 * textDocument/publishDiagnostics, one source per pull registration. What a document shows is
 * their union, each entry once: a server that pushes and is pulled, or two registrations that
 * report the same finding, never show it twice.
 */
export class DiagnosticSet {
  private readonly byPath = new Map<string, Map<string, Diagnostic[]>>();

  /** Replaces what `source` says about `path` (an empty list or undefined forgets it). */
  set(path: string, source: string, diagnostics: readonly Diagnostic[] | undefined): void {
    let sources = this.byPath.get(path);
    if (!diagnostics || diagnostics.length === 0) {
      if (!sources?.delete(source)) return;
      if (sources.size === 0) this.byPath.delete(path);
      return;
    }
    if (!sources) this.byPath.set(path, (sources = new Map()));
    sources.set(source, [...diagnostics]);
  }

  /** Forgets what `source` says about every document; the paths it touched, to repaint. */
  dropSource(source: string): string[] {
    const touched: string[] = [];
    for (const [path, sources] of this.byPath) {
      if (!sources.delete(source)) continue;
      touched.push(path);
      if (sources.size === 0) this.byPath.delete(path);
    }
    return touched;
  }

  /** Every source's diagnostics of a document, duplicates removed, in the order they came. */
  merged(path: string): Diagnostic[] {
    const sources = this.byPath.get(path);
    if (!sources) return [];
    const seen = new Set<string>();
    const out: Diagnostic[] = [];
    for (const list of sources.values()) {
      for (const diagnostic of list) {
        const key = identityOf(diagnostic);
        if (seen.has(key)) continue;
        seen.add(key);
        out.push(diagnostic);
      }
    }
    return out;
  }
}

/** Two diagnostics are the same entry when a person could not tell them apart in Problems. */
function identityOf(d: Diagnostic): string {
  const r = d.range;
  return JSON.stringify([r?.start?.line, r?.start?.character, r?.end?.line, r?.end?.character, d.severity ?? 1, d.message, d.code ?? null, d.source ?? null]);
}
