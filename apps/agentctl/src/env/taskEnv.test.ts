import { describe, expect, it } from 'vitest';
import { absoluteEntries, absolutePath, childEnv, envValue } from './taskEnv.js';

describe('task env', () => {
  it('reads Windows names case-insensitively, the exact spelling first, and never an empty value', () => {
    expect(envValue({ Path: 'C:\\a' }, 'PATH', 'win32')).toBe('C:\\a');
    expect(envValue({ Path: 'C:\\a', PATH: 'C:\\b' }, 'PATH', 'win32')).toBe('C:\\b');
    expect(envValue({ PATH: '', Path: 'C:\\a' }, 'PATH', 'win32')).toBe('C:\\a');
    expect(envValue({ Path: '/a' }, 'PATH', 'linux')).toBeUndefined();
    expect(envValue({ HOME: '' }, 'HOME', 'linux')).toBeUndefined();
  });

  it('accepts only full roots as absolute on Windows, and normalizes', () => {
    expect(absolutePath('C:/tools', 'win32')).toBe('C:\\tools');
    expect(absolutePath('\\\\srv\\share\\bin', 'win32')).toBe('\\\\srv\\share\\bin');
    for (const relative of ['\\nodrive', 'D:drive-relative', '\\\\srv', 'rel']) expect(absolutePath(relative, 'win32')).toBeUndefined();
    expect(absolutePath('/a/../b', 'linux')).toBe('/b');
    expect(absolutePath('a/b', 'linux')).toBeUndefined();
  });

  it('keeps the absolute entries of a list variable, in order, once each', () => {
    expect(absoluteEntries('/a::.:rel:/b:/a', 'linux')).toEqual(['/a', '/b']);
    expect(absoluteEntries(' C:\\a ;"C:\\Program Files\\x";rel', 'win32')).toEqual(['C:\\a', 'C:\\Program Files\\x']);
  });

  it('drops every AGENTCTL_* variable and unset values from a child env', () => {
    expect(childEnv({ AGENTCTL_X: 'y', GOBIN: '/g', UNSET: undefined })).toEqual({ GOBIN: '/g' });
  });

  it('applies overrides; on Windows an override replaces the variable under any spelling', () => {
    expect(childEnv({ GoBin: 'C:\\old', Path: 'C:\\p' }, { GOBIN: 'C:\\new' }, 'win32')).toEqual({ Path: 'C:\\p', GOBIN: 'C:\\new' });
    expect(childEnv({ GoBin: '/old' }, { GOBIN: '/new' }, 'linux')).toEqual({ GoBin: '/old', GOBIN: '/new' });
    expect(childEnv({ GOTMPDIR: '/t' }, { GOTMPDIR: undefined, AGENTCTL_TOKEN: 'x' }, 'linux')).toEqual({});
  });
});
