import { describe, expect, it } from 'vitest';
import { readyFrameIdentity, workspaceIdentityOf } from './readyFrame.js';

const valid = { status: 'ready', language: 'go', workspaceUri: 'file:///w', workspacePath: '/w', repoSubpaths: ['api', 'web'] };

describe('readyFrameIdentity', () => {
  it('returns a copy of a valid identity', () => {
    const result = readyFrameIdentity(valid);
    expect(result).toEqual({ ok: true, identity: { workspaceUri: 'file:///w', workspacePath: '/w', repoSubpaths: ['api', 'web'] } });
    if (result.ok) expect(result.identity.repoSubpaths).not.toBe(valid.repoSubpaths);
  });

  it.each([
    ['not an object', null, /not an object/],
    ['a missing workspaceUri', { ...valid, workspaceUri: undefined }, /workspaceUri/],
    ['a numeric workspacePath', { ...valid, workspacePath: 1 }, /workspacePath/],
    ['repoSubpaths not an array', { ...valid, repoSubpaths: 'api' }, /repoSubpaths/],
    ['a non-string subpath (refused, not filtered)', { ...valid, repoSubpaths: ['api', 3] }, /repoSubpaths must be an array of strings/],
  ])('refuses %s with an error naming the field', (_name, frame, error) => {
    const result = readyFrameIdentity(frame);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(error);
  });
});

describe('workspaceIdentityOf', () => {
  it("applies the ready frame's rule to any message carrying the identity, naming it in the error", () => {
    expect(workspaceIdentityOf({ ok: true, workspaceUri: 'file:///w', workspacePath: '/w', repoSubpaths: [] }, 'agentctl health')).toEqual({
      ok: true,
      identity: { workspaceUri: 'file:///w', workspacePath: '/w', repoSubpaths: [] },
    });
    expect(workspaceIdentityOf({ workspaceUri: 'file:///w', workspacePath: '/w' }, 'agentctl health')).toEqual({
      ok: false,
      error: 'agentctl health: repoSubpaths must be an array of strings',
    });
  });
});
