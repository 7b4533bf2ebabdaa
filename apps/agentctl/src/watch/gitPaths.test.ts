import { describe, expect, it } from 'vitest';
import { classifyGitPath } from './gitPaths.js';

describe('classifyGitPath', () => {
  it('HEAD, index and refs wake the git state; other .git internals are never reported', () => {
    expect(classifyGitPath('.git/HEAD', [''])).toBe('git_state');
    expect(classifyGitPath('.git/index', [''])).toBe('git_state');
    expect(classifyGitPath('.git/refs/heads/main', [''])).toBe('git_state');
    expect(classifyGitPath('.git/packed-refs', [''])).toBe('git_state');
    expect(classifyGitPath('.git/index.lock', [''])).toBe('git_internal');
    expect(classifyGitPath('.git/objects/ab/cdef', [''])).toBe('git_internal');
    expect(classifyGitPath('src/.git/config', [''])).toBe('git_internal');
    expect(classifyGitPath('src/main.ts', [''])).toBe('not_git');
    expect(classifyGitPath('.github/workflows/ci.yml', [''])).toBe('not_git');
  });

  it('several repositories: each one its own .git', () => {
    expect(classifyGitPath('api/.git/HEAD', ['api', 'web'])).toBe('git_state');
    expect(classifyGitPath('web/.git/refs/heads/x', ['api', 'web'])).toBe('git_state');
    expect(classifyGitPath('web/src/a.ts', ['api', 'web'])).toBe('not_git');
  });
});
