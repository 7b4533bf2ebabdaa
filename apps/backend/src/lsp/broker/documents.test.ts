import { describe, expect, it } from 'vitest';
import { DocumentSync, DocumentVersions, uriKey } from './documents.js';

const A = 'file:///workspace/a.go';
const open = (uri: string, version: number) => ({ textDocument: { uri, languageId: 'go', version, text: 'x' } });
const change = (uri: string, version: number) => ({ textDocument: { uri, version }, contentChanges: [{ text: 'y' }] });
const diags = (uri: string, version?: number) => (version === undefined ? { uri, diagnostics: [] } : { uri, version, diagnostics: [] });

describe('document versions', () => {
  it('server-facing versions per URI strictly increase for the lease life, across attachments', () => {
    const versions = new DocumentVersions();
    const first = new DocumentSync(versions, false);
    expect(first.didOpen(open(A, 1))?.textDocument.version).toBe(1);
    expect(first.didChange(change(A, 2))?.textDocument.version).toBe(2);
    expect(first.closeAll()).toEqual([A]);
    // the next browser restarts its own numbering at 1; the server sees 3, 4
    const second = new DocumentSync(versions, true);
    expect(second.didOpen(open(A, 1))?.textDocument.version).toBe(3);
    expect(second.didChange(change(A, 2))?.textDocument.version).toBe(4);
    expect(versions.current(uriKey(A))).toBe(4);
  });

  it('a didChange for a URI this attachment never opened is not forwarded', () => {
    const sync = new DocumentSync(new DocumentVersions(), false);
    expect(sync.didChange(change(A, 2))).toBeUndefined();
  });

  it('treats differently spelled file URIs as one document', () => {
    const sync = new DocumentSync(new DocumentVersions(), false);
    sync.didOpen(open('file:///C%3A/w/a.go', 1));
    expect(sync.isOpen('file:///c:/w/a.go')).toBe(true);
  });
});

describe('diagnostics gate', () => {
  it('drops publications for URIs not open in this attachment', () => {
    const sync = new DocumentSync(new DocumentVersions(), false);
    expect(sync.diagnostics(diags(A, 1))).toEqual({ verdict: 'drop', why: 'not_open' });
  });

  it('forwards a versioned publication only for the current server version, rewritten to the browser version', () => {
    const versions = new DocumentVersions();
    versions.next(uriKey(A)); // an earlier attachment used version 1
    const sync = new DocumentSync(versions, false);
    sync.didOpen(open(A, 1)); // server version 2
    expect(sync.diagnostics(diags(A, 1))).toEqual({ verdict: 'drop', why: 'stale_version' });
    expect(sync.diagnostics(diags(A, 2))).toEqual({ verdict: 'forward', params: { uri: A, version: 1, diagnostics: [] } });
  });

  it('C03 a resumed attachment holds publications until synchronized and re-checks them at flush', () => {
    const versions = new DocumentVersions();
    const sync = new DocumentSync(versions, true);
    sync.didOpen(open(A, 1)); // server version 1
    expect(sync.diagnostics(diags(A, 1))).toEqual({ verdict: 'hold' });
    sync.didChange(change(A, 2)); // server version 2: the held publication is now stale
    expect(sync.synchronize()).toEqual([]);
    expect(sync.diagnostics(diags(A, 2))).toEqual({ verdict: 'forward', params: { uri: A, version: 2, diagnostics: [] } });
  });

  it('flushes the latest held qualifying publication at synchronized', () => {
    const sync = new DocumentSync(new DocumentVersions(), true);
    sync.didOpen(open(A, 5));
    sync.diagnostics(diags(A, 1));
    expect(sync.synchronize()).toEqual([{ uri: A, version: 5, diagnostics: [] }]);
  });

  it('unversioned publications qualify only while the URI is open in this generation', () => {
    const sync = new DocumentSync(new DocumentVersions(), true);
    expect(sync.diagnostics(diags(A))).toEqual({ verdict: 'drop', why: 'not_open' });
    sync.didOpen(open(A, 1));
    expect(sync.diagnostics(diags(A))).toEqual({ verdict: 'hold' });
    expect(sync.synchronize()).toEqual([{ uri: A, diagnostics: [] }]);
    expect(sync.didClose({ textDocument: { uri: A } })).toBe(true);
    expect(sync.diagnostics(diags(A))).toEqual({ verdict: 'drop', why: 'not_open' });
  });

  it('closeAll forgets everything, held publications included', () => {
    const sync = new DocumentSync(new DocumentVersions(), true);
    sync.didOpen(open(A, 1));
    sync.diagnostics(diags(A, 1));
    sync.closeAll();
    expect(sync.openCount).toBe(0);
    expect(sync.synchronize()).toEqual([]);
  });
});
