import { Emitter } from '@kandev/kit';
import type { WriteOutcome } from '../../api/kandevApi.js';
import type { MonacoApi } from '../lsp/providers/host.js';

/** Just enough of a Monaco text model: versions, undo history, change events. */
export class FakeTextModel {
  private history: Array<{ text: string; alt: number }>;
  private version = 1;
  private nextAlt = 2;
  private alt = 1;
  disposed = false;
  private readonly changes = new Emitter<{ changes: unknown[] }>();
  constructor(
    readonly uri: { toString(): string },
    private text: string,
  ) {
    this.history = [{ text, alt: 1 }];
  }
  getValue() {
    return this.text;
  }
  setValue(text: string) {
    this.edit(text);
  }
  getVersionId() {
    return this.version;
  }
  getAlternativeVersionId() {
    return this.alt;
  }
  onDidChangeContent(listener: (e: { changes: unknown[] }) => void) {
    return this.changes.event(listener);
  }
  getFullModelRange() {
    return { startLineNumber: 1, startColumn: 1, endLineNumber: 1, endColumn: 1 };
  }
  pushStackElement() {}
  pushEditOperations(_s: unknown, edits: Array<{ text: string }>) {
    this.edit(edits[0]!.text);
    return null;
  }
  canUndo() {
    return this.history.length > 1;
  }
  undo() {
    this.history.pop();
    const prev = this.history.at(-1)!;
    this.set(prev.text, prev.alt);
  }
  edit(text: string) {
    const alt = this.nextAlt++;
    this.history.push({ text, alt });
    this.set(text, alt);
  }
  private set(text: string, alt: number) {
    this.text = text;
    this.alt = alt;
    this.version++;
    this.changes.fire({ changes: [{ range: { startLineNumber: 1, startColumn: 1, endLineNumber: 1, endColumn: 1 }, rangeLength: 0, rangeOffset: 0, text }] });
  }
  dispose() {
    this.disposed = true;
  }
}

export function fakeMonaco() {
  const models = new Map<string, FakeTextModel>();
  const monaco = {
    Uri: { from: (p: { scheme: string; authority: string; path: string }) => ({ ...p, toString: () => `${p.scheme}://${p.authority}${p.path}` }) },
    editor: {
      getModel: (uri: { toString(): string }) => {
        const m = models.get(uri.toString());
        return m && !m.disposed ? m : null;
      },
      createModel: (text: string, _lang: string | undefined, uri: { toString(): string }) => {
        const m = new FakeTextModel(uri, text);
        models.set(uri.toString(), m);
        return m;
      },
    },
  } as unknown as MonacoApi;
  return { monaco, models };
}

export function fakeApi(files: Record<string, string>) {
  const writes: Array<{ path: string; content: string; baseVersion: string | undefined }> = [];
  let nextWrite: (() => Promise<WriteOutcome>) | undefined;
  const api = {
    listFiles: async () => [],
    readFile: async (_s: string, path: string) => ({ content: files[path] ?? '', version: `v-${files[path]}` }),
    writeFile: async (_s: string, path: string, content: string, baseVersion: string | undefined): Promise<WriteOutcome> => {
      writes.push({ path, content, baseVersion });
      if (nextWrite) {
        const w = nextWrite;
        nextWrite = undefined;
        return w();
      }
      files[path] = content;
      return { ok: true, version: `v-${content}` };
    },
  };
  return { api, writes, setNextWrite: (fn: () => Promise<WriteOutcome>) => (nextWrite = fn) };
}
