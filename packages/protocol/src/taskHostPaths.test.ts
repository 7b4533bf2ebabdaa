import { describe, expect, it } from 'vitest';
import { TASK_HOST_PATHS, lspStreamPath, taskHostFilesPath } from './taskHostPaths.js';

describe('task host paths', () => {
  it('builds the LSP stream path with its query', () => {
    const url = new URL(lspStreamPath({ language: 'go', autoInstall: true }), 'ws://h');
    expect(url.pathname).toBe(TASK_HOST_PATHS.lspStream);
    expect(url.searchParams.get('language')).toBe('go');
    expect(url.searchParams.get('autoInstall')).toBe('true');
    expect(url.searchParams.get('trustWorkspaceTools')).toBe('false');
    const trusted = new URL(lspStreamPath({ language: 'typescript', autoInstall: false, trustWorkspaceTools: true }), 'ws://h');
    expect(trusted.searchParams.get('trustWorkspaceTools')).toBe('true');
  });

  it('keeps the forwarded query string as the browser sent it', () => {
    expect(taskHostFilesPath('file', '?path=a%20b.ts')).toBe('/api/v1/file?path=a%20b.ts');
    expect(taskHostFilesPath('files', '')).toBe('/api/v1/files');
    expect(taskHostFilesPath('filesApply', '')).toBe('/api/v1/files/apply');
  });
});
