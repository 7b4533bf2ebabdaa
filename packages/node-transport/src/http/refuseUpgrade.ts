import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';

/**
 * Refuses a WebSocket upgrade with a plain HTTP answer before any handshake: the status with its
 * standard reason phrase, and the JSON error body every API of the house uses
 * (`{"error":{"code","message"}}`). The connection is closed after it.
 */
export function refuseUpgrade(socket: Duplex, status: number, code: string, message: string): void {
  const body = JSON.stringify({ error: { code, message } });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\n` +
      'Connection: close\r\nContent-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}
