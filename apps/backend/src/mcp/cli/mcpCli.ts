/**
 * `npm run mcp -- config --session <id>`: asks the running backend for a new agent token of that
 * session and prints the JSON an MCP client takes. `npm run mcp -- stdio`: a bridge for clients that
 * speak only stdio, relaying to the endpoint named by KANDEV_MCP_URL and KANDEV_MCP_TOKEN.
 * (docs/agents.md)
 */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { ACCESS_TOKEN_FILE, apiPath, MCP_TOKEN_ENV, MCP_URL_ENV } from '@kandev/protocol';
import { runStdioBridge } from './stdioBridge.js';

const USAGE = `Usage:
  npm run mcp -- config --session ID   print the MCP client JSON for a session (a new agent token)
  npm run mcp -- stdio [--url URL] [--token TOKEN]
                                       relay stdio to the endpoint (default: $${MCP_URL_ENV}, $${MCP_TOKEN_ENV})

The backend's address comes from KANDEV_HOST and KANDEV_PORT (127.0.0.1:7420), its access token from
KANDEV_TOKEN or KANDEV_HOME/access-token (~/.kandev).`;

function option(argv: string[], name: string): string | undefined {
  const at = argv.indexOf(name);
  if (at >= 0) return argv[at + 1];
  const inline = argv.find((a) => a.startsWith(`${name}=`));
  return inline?.slice(name.length + 1);
}

function accessToken(env: NodeJS.ProcessEnv): string {
  if (env.KANDEV_TOKEN) return env.KANDEV_TOKEN;
  const home = (env.KANDEV_HOME || '~/.kandev').replace(/^~(?=$|\/)/, homedir());
  return readFileSync(join(home, ACCESS_TOKEN_FILE), 'utf8').trim();
}

async function printConfig(sessionId: string, env: NodeJS.ProcessEnv): Promise<number> {
  const host = env.KANDEV_HOST || '127.0.0.1';
  const base = `http://${host.includes(':') ? `[${host}]` : host}:${env.KANDEV_PORT || '7420'}`;
  const response = await fetch(`${base}${apiPath('sessionMcpConfig', { id: sessionId })}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${accessToken(env)}`, 'content-type': 'application/json' },
  });
  const text = await response.text();
  if (!response.ok) {
    process.stderr.write(`kandev mcp: HTTP ${response.status}: ${text}\n`);
    return 1;
  }
  process.stdout.write(`${text}\n`);
  return 0;
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === 'config') {
    const sessionId = option(rest, '--session');
    if (!sessionId) {
      process.stderr.write(`${USAGE}\n`);
      return 2;
    }
    return printConfig(sessionId, process.env);
  }
  if (command === 'stdio') {
    const url = option(rest, '--url') ?? process.env[MCP_URL_ENV];
    const token = option(rest, '--token') ?? process.env[MCP_TOKEN_ENV];
    if (!url || !token) {
      process.stderr.write(`kandev mcp stdio: set ${MCP_URL_ENV} and ${MCP_TOKEN_ENV} (or --url and --token)\n`);
      return 2;
    }
    await runStdioBridge(url, token);
    return 0;
  }
  process.stdout.write(`${USAGE}\n`);
  return command === undefined || command === '--help' ? 0 : 2;
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code !== 0) process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`kandev mcp: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
