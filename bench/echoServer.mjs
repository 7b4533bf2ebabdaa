// A stub language server for the transport benchmarks: answers `initialize`, echoes `bench/echo`
// params back as its result, and on `bench/flood` {count, size} sends `count` notifications of
// about `size` bytes before answering. Plain JavaScript, so it starts as fast as node itself and
// the numbers measure the transport, not a server's work.
import { Buffer } from 'node:buffer';
import process from 'node:process';

let buffer = Buffer.alloc(0);

function send(message) {
  const body = Buffer.from(JSON.stringify(message), 'utf8');
  process.stdout.write(Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, 'ascii'), body]));
}

function handle(message) {
  if (message.method === 'initialize') send({ jsonrpc: '2.0', id: message.id, result: { capabilities: { textDocumentSync: 2, hoverProvider: true } } });
  else if (message.method === 'shutdown') send({ jsonrpc: '2.0', id: message.id, result: null });
  else if (message.method === 'exit') process.exit(0);
  else if (message.method === 'bench/echo') send({ jsonrpc: '2.0', id: message.id, result: message.params });
  else if (message.method === 'bench/flood') {
    const { count, size } = message.params;
    const payload = 'x'.repeat(Math.max(0, size - 60));
    for (let i = 0; i < count; i++) send({ jsonrpc: '2.0', method: 'bench/tick', params: { i, payload } });
    send({ jsonrpc: '2.0', id: message.id, result: { sent: count } });
  } else if (message.id !== undefined && message.method) send({ jsonrpc: '2.0', id: message.id, result: null });
}

process.stdin.on('data', (chunk) => {
  buffer = Buffer.concat([buffer, chunk]);
  for (;;) {
    const end = buffer.indexOf('\r\n\r\n');
    if (end === -1) return;
    const match = /Content-Length: *(\d+)/i.exec(buffer.subarray(0, end).toString('ascii'));
    if (!match) process.exit(2);
    const length = Number(match[1]);
    if (buffer.length < end + 4 + length) return;
    const body = buffer.subarray(end + 4, end + 4 + length).toString('utf8');
    buffer = buffer.subarray(end + 4 + length);
    handle(JSON.parse(body));
  }
});
process.stdin.on('end', () => process.exit(0));
