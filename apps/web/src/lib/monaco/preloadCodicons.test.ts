import { describe, expect, it } from 'vitest';
import { preloadCodicons } from './preloadCodicons.js';

describe('preloadCodicons', () => {
  it("asks the page's font set to load Monaco's codicon face", async () => {
    const asked: string[] = [];
    await preloadCodicons({ load: (font: string) => (asked.push(font), Promise.resolve([])) });
    expect(asked).toEqual(['16px codicon']);
  });

  it('a refused load is not an error (the glyphs would be fetched later, as without it)', async () => {
    await expect(preloadCodicons({ load: () => Promise.reject(new Error('network')) })).resolves.toBeUndefined();
  });

  it('without a document (no font set) it does nothing', async () => {
    await expect(preloadCodicons(undefined)).resolves.toBeUndefined();
  });
});
