#!/usr/bin/env node
/**
 * Generates the pseudo locale from English: every catalog in apps/web/src/locales/en becomes
 * apps/web/src/locales/pseudo/<same name>, each string accented, bracketed and lengthened by about
 * a third, so untranslated text, clipped layouts and concatenated copy stand out. {{placeholders}}
 * and $t(nesting) stay intact, because i18next must still find them.
 *
 *   node scripts/pseudo-locale.mjs           write the pseudo catalogs
 *   node scripts/pseudo-locale.mjs --check   exit 1 if a committed pseudo catalog is out of date
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ACCENTS = {
  a: 'à',
  b: 'ƀ',
  c: 'ç',
  d: 'đ',
  e: 'é',
  f: 'ƒ',
  g: 'ĝ',
  h: 'ĥ',
  i: 'î',
  j: 'ĵ',
  k: 'ķ',
  l: 'ĺ',
  m: 'ɱ',
  n: 'ñ',
  o: 'ö',
  p: 'þ',
  q: 'ǫ',
  r: 'ŕ',
  s: 'š',
  t: 'ţ',
  u: 'û',
  v: 'ṽ',
  w: 'ŵ',
  x: 'ẋ',
  y: 'ý',
  z: 'ž',
  A: 'À',
  B: 'Ɓ',
  C: 'Ç',
  D: 'Đ',
  E: 'É',
  F: 'Ƒ',
  G: 'Ĝ',
  H: 'Ĥ',
  I: 'Î',
  J: 'Ĵ',
  K: 'Ķ',
  L: 'Ĺ',
  M: 'Ṁ',
  N: 'Ñ',
  O: 'Ö',
  P: 'Þ',
  Q: 'Ǫ',
  R: 'Ŕ',
  S: 'Š',
  T: 'Ţ',
  U: 'Û',
  V: 'Ṽ',
  W: 'Ŵ',
  X: 'Ẋ',
  Y: 'Ý',
  Z: 'Ž',
};

/** Interpolations ({{name}}, {{- raw}}, {{value, format}}) and nestings ($t(key)) pass through untouched. */
const PROTECTED = /(\{\{[^}]*\}\}|\$t\([^)]*\))/;

/** One pseudo-localized string: "[!! Ŝţàŕţ ·· !!]". */
export function pseudoLocalize(text) {
  let visible = 0;
  const body = text
    .split(PROTECTED)
    .map((part, index) => {
      if (index % 2 === 1) return part; // a protected token
      visible += part.length;
      return [...part].map((ch) => ACCENTS[ch] ?? ch).join('');
    })
    .join('');
  const padding = '·'.repeat(Math.max(1, Math.round(visible * 0.35)));
  return `[!! ${body} ${padding} !!]`;
}

/** A whole catalog (nested objects of strings), keys unchanged. */
export function pseudoCatalog(value) {
  if (typeof value === 'string') return pseudoLocalize(value);
  if (Array.isArray(value)) return value.map(pseudoCatalog);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, pseudoCatalog(v)]));
  return value;
}

export const localesDir = join(dirname(fileURLToPath(import.meta.url)), '../apps/web/src/locales');

/** File name -> exact file text of each pseudo catalog, generated from the English ones. */
export function generatePseudoCatalogs(dir = localesDir) {
  const out = {};
  for (const file of readdirSync(join(dir, 'en'))
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    const english = JSON.parse(readFileSync(join(dir, 'en', file), 'utf8'));
    out[file] = `${JSON.stringify(pseudoCatalog(english), null, 2)}\n`;
  }
  return out;
}

function main(args) {
  const generated = generatePseudoCatalogs();
  const stale = [];
  for (const [file, text] of Object.entries(generated)) {
    const target = join(localesDir, 'pseudo', file);
    let current;
    try {
      current = readFileSync(target, 'utf8');
    } catch {
      current = undefined;
    }
    if (current === text) continue;
    if (args.includes('--check')) stale.push(file);
    else writeFileSync(target, text);
  }
  if (stale.length > 0) {
    console.error(`pseudo catalogs out of date: ${stale.join(', ')} (run node scripts/pseudo-locale.mjs)`);
    process.exit(1);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main(process.argv.slice(2));
