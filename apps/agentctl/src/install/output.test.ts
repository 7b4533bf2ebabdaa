import { MAX_INSTALL_ERROR_BYTES } from '@kandev/protocol';
import { describe, expect, it } from 'vitest';
import { failureText, MAX_PROGRESS_LINE_CHARS, MAX_PROGRESS_LINES, OutputTail, truncateUtf8, utf8Bytes } from './output.js';

describe('OutputTail', () => {
  it('joins lines split across chunks and streams, and strips terminal escapes and redraws', () => {
    const seen: string[] = [];
    const out = new OutputTail((l) => seen.push(l));
    out.push('stdout', Buffer.from('added 1 pack'));
    out.push('stderr', Buffer.from('npm warn \x1b[33mdeprecated\x1b[0m x\n'));
    out.push('stdout', Buffer.from('age in 2s\nspinner 10%\rspinner 100%\n'));
    out.flush();
    expect(seen).toEqual(['npm warn deprecated x', 'added 1 package in 2s', 'spinner 100%']);
  });

  it('keeps a multi-byte character split between chunks intact', () => {
    const out = new OutputTail();
    const bytes = Buffer.from('erreur: échec\n');
    out.push('stderr', bytes.subarray(0, 9));
    out.push('stderr', bytes.subarray(9));
    expect(out.tail()).toEqual(['erreur: échec']);
  });

  it('redacts credentials an installer echoes', () => {
    const out = new OutputTail();
    out.note('GET https://bob:s3cret@registry.example/pyright');
    out.note('//registry.example/:_authToken=npm_abcdef');
    expect(out.tail().join('\n')).not.toMatch(/s3cret|npm_abcdef/);
  });

  it('S12: bounds what it keeps to the newest MAX_INSTALL_ERROR_BYTES, and what it forwards per line and in count', () => {
    const seen: string[] = [];
    const out = new OutputTail((l) => seen.push(l));
    for (let i = 0; i < 5_000; i++) out.note(`line ${i} ${'x'.repeat(40)}`);
    out.note(`npm error ${'y'.repeat(MAX_PROGRESS_LINE_CHARS * 2)}`);
    const kept = out.tail();
    expect(kept.reduce((n, l) => n + utf8Bytes(l) + 1, 0)).toBeLessThanOrEqual(MAX_INSTALL_ERROR_BYTES);
    expect(kept.at(-1)).toMatch(/^npm error y+/);
    expect(kept.at(-2)).toMatch(/^line 4999 /);
    expect(seen).toHaveLength(MAX_PROGRESS_LINES);
    expect(seen.every((l) => l.length <= MAX_PROGRESS_LINE_CHARS + 3)).toBe(true);
  });

  it('cuts an endless line instead of buffering it', () => {
    const out = new OutputTail();
    out.push('stdout', Buffer.from('z'.repeat(100_000)));
    expect(out.tail().length).toBeGreaterThan(0);
    expect(utf8Bytes(out.tail().join('\n'))).toBeLessThanOrEqual(MAX_INSTALL_ERROR_BYTES);
  });
});

describe('failureText', () => {
  it('S12: puts the actionable summary first and the newest output after it, within the bound', () => {
    const tail = Array.from({ length: 1000 }, (_, i) => `go: line ${i}`);
    const text = failureText('go install failed. Check GOPROXY.', tail);
    expect(text.startsWith('go install failed. Check GOPROXY.\n')).toBe(true);
    expect(text.endsWith('go: line 999')).toBe(true);
    expect(utf8Bytes(text)).toBeLessThanOrEqual(MAX_INSTALL_ERROR_BYTES);
  });

  it('never exceeds the bound in bytes, even with a huge multi-byte summary', () => {
    const text = failureText('错'.repeat(MAX_INSTALL_ERROR_BYTES), ['x']);
    expect(utf8Bytes(text)).toBeLessThanOrEqual(MAX_INSTALL_ERROR_BYTES);
    expect(text).not.toContain('\uFFFD');
    expect(truncateUtf8('aé', 2)).toBe('a');
  });
});
