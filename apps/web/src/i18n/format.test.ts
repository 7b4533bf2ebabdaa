import { describe, expect, it } from 'vitest';
import { formatElapsed, pluralForm } from './format.js';
import { testTranslate } from './testing.js';

describe("elapsed time in the locale's own units", () => {
  it('S40 English: seconds, minutes and seconds, hours and minutes, with singular forms', async () => {
    const t = await testTranslate('en');
    expect(formatElapsed(0, t, 'en')).toBe('0 seconds');
    expect(formatElapsed(1_000, t, 'en')).toBe('1 second');
    expect(formatElapsed(59_999, t, 'en')).toBe('59 seconds');
    expect(formatElapsed(60_000, t, 'en')).toBe('1 minute');
    expect(formatElapsed(61_000, t, 'en')).toBe('1 minute 1 second');
    expect(formatElapsed(125_000, t, 'en')).toBe('2 minutes 5 seconds');
    expect(formatElapsed(3_600_000, t, 'en')).toBe('1 hour');
    expect(formatElapsed(3_600_000 + 25 * 60_000 + 9_000, t, 'en')).toBe('1 hour 25 minutes');
  });

  it('S40 Portuguese (Portugal): its own words and "e" between units', async () => {
    const t = await testTranslate('pt-pt');
    expect(formatElapsed(1_000, t, 'pt-pt')).toBe('1 segundo');
    expect(formatElapsed(42_000, t, 'pt-pt')).toBe('42 segundos');
    expect(formatElapsed(125_000, t, 'pt-pt')).toBe('2 minutos e 5 segundos');
    expect(formatElapsed(2 * 3_600_000 + 60_000, t, 'pt-pt')).toBe('2 horas e 1 minuto');
  });

  it('S40 Simplified Chinese: 秒, 分钟, 小时 composed by the catalog', async () => {
    const t = await testTranslate('zh-cn');
    expect(formatElapsed(42_000, t, 'zh-cn')).toBe('42 秒');
    expect(formatElapsed(125_000, t, 'zh-cn')).toBe('2 分钟 5 秒');
    expect(formatElapsed(3_660_000, t, 'zh-cn')).toBe('1 小时 1 分钟');
  });

  it('S40 pseudo: units come from the pseudo catalog, not from English code', async () => {
    const t = await testTranslate('pseudo');
    const text = formatElapsed(125_000, t, 'pseudo');
    expect(text).toMatch(/^\[!! .*2.*ɱîñûţéš.* !!\] \[!! .*5.*šéçöñđš.* !!\]/);
    expect(text).toContain('[!!');
    expect(text).not.toMatch(/\bminutes\b|\bseconds\b/);
  });

  it('never shows negative or non-finite time', async () => {
    const t = await testTranslate('en');
    expect(formatElapsed(-5_000, t, 'en')).toBe('0 seconds');
    expect(formatElapsed(Number.NaN, t, 'en')).toBe('0 seconds');
  });

  it('plural forms reduce to one/other per locale', () => {
    expect([pluralForm('en', 1), pluralForm('en', 2), pluralForm('pt-pt', 1), pluralForm('pt-pt', 0), pluralForm('zh-cn', 1)]).toEqual([
      'one',
      'other',
      'one',
      'other',
      'other',
    ]);
  });
});
