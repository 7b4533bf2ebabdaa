import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

/**
 * Relays an MCP client that speaks only stdio to the Streamable HTTP endpoint, message for message
 * (the SDK's transports on both sides; nothing is interpreted here). Ends when either side closes.
 */
export async function runStdioBridge(url: string, token: string): Promise<void> {
  const remote = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } });
  const local = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    local.onclose = () => resolve();
    remote.onclose = () => resolve();
  });
  local.onmessage = (message) => {
    remote.send(message).catch((err: unknown) => process.stderr.write(`kandev mcp stdio: ${err instanceof Error ? err.message : String(err)}\n`));
  };
  remote.onmessage = (message) => {
    void local.send(message);
  };
  remote.onerror = (err) => process.stderr.write(`kandev mcp stdio: ${err.message}\n`);
  await remote.start();
  await local.start();
  await closed;
  await remote.close().catch(() => undefined);
  await local.close().catch(() => undefined);
}
