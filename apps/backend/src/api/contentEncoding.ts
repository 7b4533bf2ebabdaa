/** Content codings the backend can serve from precompressed siblings, best first. */
export type ContentEncoding = 'br' | 'gzip' | 'identity';

const PREFERENCE: ContentEncoding[] = ['br', 'gzip'];

/**
 * Picks the representation for an `Accept-Encoding` header (RFC 9110 section 12.5.3) among the
 * precompressed ones that exist. Brotli beats gzip when both are acceptable at the same weight;
 * `q=0` refuses a coding, `*` stands for every coding not named; identity is always acceptable
 * unless refused explicitly (and then still served: a 406 for a static asset helps nobody).
 */
export function chooseEncoding(header: string | undefined, available: readonly ContentEncoding[]): ContentEncoding {
  if (!header) return 'identity';
  const weights = new Map<string, number>();
  for (const part of header.split(',')) {
    const [rawName, ...params] = part.trim().split(';');
    const name = rawName?.trim().toLowerCase();
    if (!name) continue;
    let q = 1;
    for (const param of params) {
      const match = /^\s*q\s*=\s*([0-9.]+)\s*$/i.exec(param);
      if (match) q = Number(match[1]);
    }
    weights.set(name === 'x-gzip' ? 'gzip' : name, Number.isFinite(q) ? q : 0);
  }
  const weightOf = (coding: ContentEncoding) => weights.get(coding) ?? weights.get('*') ?? 0;
  let best: ContentEncoding = 'identity';
  let bestWeight = 0;
  for (const coding of PREFERENCE) {
    if (!available.includes(coding)) continue;
    const weight = weightOf(coding);
    if (weight > bestWeight) {
      best = coding;
      bestWeight = weight;
    }
  }
  return best;
}
