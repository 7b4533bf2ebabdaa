import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCli } from './cli.js';
import { loadConfig } from './config.js';

describe('parseCli', () => {
  it('reads --demo and repeated --workspace, resolving folders', () => {
    expect(parseCli(['--demo', '--workspace', 'a', '--workspace=/b'])).toEqual({
      ok: true,
      value: { demo: true, workspaces: [resolve('a'), '/b'], help: false },
    });
  });

  it('refuses unknown arguments and a --workspace without a folder', () => {
    expect(parseCli(['--wat']).ok).toBe(false);
    expect(parseCli(['--workspace']).ok).toBe(false);
  });
});

describe('loadConfig', () => {
  it('uses the documented defaults', () => {
    const config = loadConfig({ HOME: '/home/u' }, '/repo', 8 * 1024 ** 3);
    expect(config.ok && config.value).toMatchObject({
      host: '127.0.0.1',
      port: 7420,
      agentctlCommand: ['node', '/repo/apps/agentctl/dist/agentctl.mjs'],
      webDir: '/repo/apps/web/dist',
      demoSource: '/repo/demo/workspace',
      lspMaxConnections: 20,
      allowedOrigins: [],
      logMaxBytes: 10 * 1024 * 1024,
      logRetentionDays: 14,
    });
  });

  it('sizes the lease cap from memory unless KANDEV_LSP_MAX_CONNECTIONS says otherwise (then exactly that)', () => {
    const GiB = 1024 ** 3;
    expect(loadConfig({}, '/repo', 2 * GiB)).toMatchObject({ ok: true, value: { lspMaxConnections: 20 } });
    expect(loadConfig({}, '/repo', 32 * GiB)).toMatchObject({ ok: true, value: { lspMaxConnections: 64 } });
    expect(loadConfig({ KANDEV_LSP_MAX_CONNECTIONS: '8' }, '/repo', 32 * GiB)).toMatchObject({ ok: true, value: { lspMaxConnections: 8 } });
    expect(loadConfig({ KANDEV_LSP_MAX_CONNECTIONS: '1' }, '/repo', 2 * GiB)).toMatchObject({ ok: true, value: { lspMaxConnections: 1 } });
  });

  it('the request deadline is 30 s unless KANDEV_LSP_REQUEST_TIMEOUT_MS says otherwise; a bad value is an error naming it', () => {
    expect(loadConfig({}, '/repo')).toMatchObject({ ok: true, value: { lspRequestTimeoutMs: 30_000 } });
    expect(loadConfig({ KANDEV_LSP_REQUEST_TIMEOUT_MS: '2000' }, '/repo')).toMatchObject({ ok: true, value: { lspRequestTimeoutMs: 2_000 } });
    for (const bad of ['0', '99', 'soon', '600001']) {
      expect(loadConfig({ KANDEV_LSP_REQUEST_TIMEOUT_MS: bad }, '/repo')).toMatchObject({
        ok: false,
        error: expect.stringContaining('KANDEV_LSP_REQUEST_TIMEOUT_MS'),
      });
    }
  });

  it('reads overrides, including port 0 and a command argv', () => {
    const config = loadConfig(
      {
        KANDEV_PORT: '0',
        KANDEV_HOME: '/tmp/k',
        KANDEV_AGENTCTL_COMMAND: '["node","--import","tsx","apps/agentctl/src/main.ts"]',
        KANDEV_ALLOWED_ORIGINS: 'http://localhost:5173/, https://kandev.lan',
        KANDEV_LOG_MAX_BYTES: '1048576',
        KANDEV_LOG_RETENTION_DAYS: '0',
      },
      '/repo',
    );
    expect(config.ok && config.value).toMatchObject({
      port: 0,
      home: '/tmp/k',
      agentctlCommand: ['node', '--import', 'tsx', 'apps/agentctl/src/main.ts'],
      allowedOrigins: ['http://localhost:5173', 'https://kandev.lan'],
      logMaxBytes: 1048576,
      logRetentionDays: 0,
    });
  });

  it.each([
    ['KANDEV_PORT', '70000'],
    ['KANDEV_PORT', 'abc'],
    ['KANDEV_AGENTCTL_COMMAND', 'node agentctl.mjs'],
    ['KANDEV_AGENTCTL_COMMAND', '[]'],
    ['KANDEV_ALLOWED_ORIGINS', 'not a url'],
    ['KANDEV_LSP_MAX_CONNECTIONS', '0'],
    ['KANDEV_LOG_MAX_BYTES', '1000'],
    ['KANDEV_LOG_RETENTION_DAYS', '-1'],
    ['KANDEV_TOKEN', 'too-short'],
    ['KANDEV_TOKEN', 'has spaces and ; cookie separators'],
  ])('names the variable when %s=%s is invalid', (name, value) => {
    const config = loadConfig({ [name]: value }, '/repo');
    expect(!config.ok && config.error).toContain(name);
    // A rejected token is never echoed: the error lands in terminals and logs.
    if (name === 'KANDEV_TOKEN') expect(!config.ok && config.error).not.toContain(value);
  });

  it('takes a fixed access token from KANDEV_TOKEN, and none by default (the backend then keeps one in KANDEV_HOME)', () => {
    const fixed = loadConfig({ KANDEV_TOKEN: 'scripted-token-0123456789' }, '/repo');
    expect(fixed.ok && fixed.value.accessToken).toBe('scripted-token-0123456789');
    const generated = loadConfig({}, '/repo');
    expect(generated.ok && generated.value.accessToken).toBeUndefined();
  });
});
