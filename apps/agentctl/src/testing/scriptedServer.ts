/**
 * Test support: a tiny language server in plain Node (no build step), installed as a shell shim
 * under any binary name. It answers `initialize`, and test-only methods make it misbehave:
 *   test/exit {code}        exits (S31)
 *   test/spawn              starts descendants: a plain child, a detached (setsid) child, an
 *                           orphaned setsid grandchild whose parent exits, and one ignoring SIGTERM;
 *                           answers with their pids (S55)
 *   test/stderr {text}      writes to stderr
 *   test/raw {text}         writes raw bytes to stdout (bad framing)
 */
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const SERVER_SOURCE = String.raw`
const { spawn, execFileSync } = require('node:child_process');
let buf = Buffer.alloc(0);
function send(msg) {
  const body = Buffer.from(JSON.stringify(Object.assign({ jsonrpc: '2.0' }, msg)));
  process.stdout.write(Buffer.concat([Buffer.from('Content-Length: ' + body.length + '\r\n\r\n'), body]));
}
function handle(msg) {
  const p = msg.params || {};
  switch (msg.method) {
    case 'initialize': send({ id: msg.id, result: { capabilities: { hoverProvider: true }, serverInfo: { name: 'scripted' } } }); break;
    case 'test/exit': process.exit(p.code || 0); break;
    case 'test/stderr': process.stderr.write(p.text + '\n'); send({ id: msg.id, result: true }); break;
    case 'test/raw': process.stdout.write(p.text); break;
    case 'test/env': send({ id: msg.id, result: process.env }); break;
    case 'test/spawn': {
      const plain = spawn('sleep', ['600'], { stdio: 'ignore' });
      const detached = spawn('sleep', ['600'], { stdio: 'ignore', detached: true });
      const stubborn = spawn(process.execPath, ['-e', "process.on('SIGTERM',()=>{}); setInterval(()=>{},1000)"], { stdio: 'ignore', detached: true });
      // The intermediate shell exits at once: its setsid grandchild is re-parented away from us.
      const orphan = Number(execFileSync('sh', ['-c', 'setsid sleep 600 >/dev/null 2>&1 & echo $!']).toString().trim());
      send({ id: msg.id, result: { pids: [plain.pid, detached.pid, stubborn.pid, orphan] } });
      break;
    }
    case 'exit': process.exit(0); break;
    default: if (msg.id !== undefined && msg.method) send({ id: msg.id, result: null });
  }
}
process.stdin.on('data', (chunk) => {
  buf = Buffer.concat([buf, chunk]);
  for (;;) {
    const end = buf.indexOf('\r\n\r\n');
    if (end < 0) return;
    const m = /Content-Length: (\d+)/i.exec(buf.subarray(0, end).toString());
    const len = Number(m[1]);
    if (buf.length < end + 4 + len) return;
    const body = buf.subarray(end + 4, end + 4 + len).toString();
    buf = buf.subarray(end + 4 + len);
    handle(JSON.parse(body));
  }
});
process.stdin.on('end', () => process.exit(0));
`;

/** Writes the server script and a shim named `name` in `binDir`; returns the shim's path. */
export function installScriptedServer(binDir: string, name: string): string {
  mkdirSync(binDir, { recursive: true });
  const script = join(binDir, `.${name}.cjs`);
  writeFileSync(script, SERVER_SOURCE);
  const shim = join(binDir, name);
  writeFileSync(shim, `#!/bin/sh\nexec "${process.execPath}" "${script}" "$@"\n`);
  chmodSync(shim, 0o755);
  return shim;
}
