/**
 * Malformed frames for the fuzz test, from a seeded generator so a failure replays exactly.
 * `survivableFrame`: frames the contract answers with an error or drops (the connection stays).
 * `closingFrame`: frames the contract refuses by closing the connection with 1007.
 */
export type FuzzFrame = { kind: 'text'; text: string } | { kind: 'binary'; bytes: Buffer } | { kind: 'badUtf8'; bytes: Buffer };

/** mulberry32: small, fast, and the same sequence for the same seed on every machine. */
export class Prng {
  constructor(private state: number) {}

  next(): number {
    this.state = (this.state + 0x6d2b79f5) | 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  int(below: number): number {
    return Math.floor(this.next() * below);
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)] as T;
  }

  text(length: number): string {
    let out = '';
    for (let i = 0; i < length; i++) out += String.fromCharCode(0x20 + this.int(0x5e));
    return out;
  }
}

const text = (value: string): FuzzFrame => ({ kind: 'text', text: value });
const nested = (depth: number): string => '['.repeat(depth) + ']'.repeat(depth);

const SURVIVABLE: ((r: Prng) => string)[] = [
  // ids the contract refuses by answering: objects, arrays, null, booleans, over 256 bytes
  (r) => JSON.stringify({ jsonrpc: '2.0', id: { x: r.int(100) }, method: 'textDocument/hover', params: {} }),
  (r) => JSON.stringify({ jsonrpc: '2.0', id: [r.int(100)], method: 'textDocument/hover' }),
  () => JSON.stringify({ jsonrpc: '2.0', id: null, method: 'textDocument/hover' }),
  () => JSON.stringify({ jsonrpc: '2.0', id: true, method: 'x' }),
  (r) => JSON.stringify({ jsonrpc: '2.0', id: r.text(257 + r.int(4_000)), method: 'textDocument/hover', params: {} }),
  // a method that is not a string
  (r) => JSON.stringify({ jsonrpc: '2.0', id: r.int(1e6), method: r.int(10) }),
  // nested deeper than the bound: answered (request) or dropped (notification, response)
  (r) => `{"jsonrpc":"2.0","id":"deep-${r.int(1e6)}","method":"x","params":${nested(257 + r.int(3_000))}}`,
  (r) => `{"jsonrpc":"2.0","method":"kandev/n","params":${nested(257 + r.int(3_000))}}`,
  // responses to requests nobody made
  (r) => JSON.stringify({ jsonrpc: '2.0', id: `unknown-${r.int(1e6)}`, result: { r: r.text(r.int(64)) } }),
  (r) => JSON.stringify({ jsonrpc: '2.0', id: r.int(1e9), error: { code: -32000, message: r.text(20) } }),
  // cancel floods for ids that do not exist (or that do)
  (r) => JSON.stringify({ jsonrpc: '2.0', method: '$/cancelRequest', params: { id: r.int(50) } }),
  (r) => JSON.stringify({ jsonrpc: '2.0', method: '$/cancelRequest', params: { id: r.text(8) } }),
  (r) => JSON.stringify({ jsonrpc: '2.0', method: '$/cancelRequest', params: r.pick([null, 7, 'x', []]) }),
  // neither request, notification nor response
  (r) => JSON.stringify({ jsonrpc: '2.0', id: r.int(1e6) }),
  () => JSON.stringify({ jsonrpc: '2.0' }),
  // unknown notifications with odd params
  (r) => JSON.stringify({ jsonrpc: '2.0', method: `kandev/${r.text(6)}`, params: r.pick([null, 1, 'x', [1, 2], { a: r.text(30) }]) }),
];

const CLOSING: ((r: Prng) => FuzzFrame)[] = [
  (r) => text(`{"jsonrpc":"2.0","id":${r.int(100)},"method":"x"`.slice(0, 5 + r.int(30))),
  (r) => text(r.text(1 + r.int(200))),
  () => text(''),
  (r) => text(`[${JSON.stringify({ jsonrpc: '2.0', id: r.int(9), method: 'x' })}]`),
  () => text('[]'),
  (r) => text(JSON.stringify({ jsonrpc: r.pick(['1.0', '2', 2, null, '2.0 ']), id: r.int(9), method: 'x' })),
  (r) => text(JSON.stringify({ id: r.int(9), method: 'textDocument/hover' })),
  (r) => text(JSON.stringify(r.pick([null, 1, 'str', true]))),
  () => text(JSON.stringify({ status: 'ready' })),
  (r) => text(JSON.stringify({ control: r.pick(['release', 'nope', 7]), reason: 'because' })),
  (r) => text(nested(257 + r.int(5_000))),
  (r) => ({ kind: 'binary', bytes: Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: r.int(9), method: 'x' })) }),
  (r) => ({ kind: 'binary', bytes: Buffer.from(Array.from({ length: 1 + r.int(64) }, () => r.int(256))) }),
  (r) => ({
    kind: 'badUtf8',
    bytes: Buffer.concat([
      Buffer.from('{"jsonrpc":"2.0","method":"'),
      Buffer.from([0xc3, 0x28, 0xff, 0xfe][r.int(4)] === 0xc3 ? [0xc3, 0x28] : [0xff, 0xfe]),
      Buffer.from('"}'),
    ]),
  }),
];

export function survivableFrame(r: Prng): FuzzFrame {
  return text(r.pick(SURVIVABLE)(r));
}

export function closingFrame(r: Prng): FuzzFrame {
  return r.pick(CLOSING)(r);
}
