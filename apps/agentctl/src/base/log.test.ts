import { describe, expect, it } from 'vitest';
import { logTargets } from './log.js';

describe("agentctl's log target", () => {
  it('writes the file the backend named (bounded as asked), so the log outlives the backend that started it', () => {
    expect(logTargets({ AGENTCTL_LOG_FILE: '/home/k/.kandev/logs/agentctl-s1.log', AGENTCTL_LOG_MAX_BYTES: '1048576' })).toEqual([
      { file: '/home/k/.kandev/logs/agentctl-s1.log', maxBytes: 1_048_576 },
    ]);
    expect(logTargets({ AGENTCTL_LOG_FILE: '/var/log/agentctl.log', AGENTCTL_LOG_MAX_BYTES: 'lots' })).toEqual([{ file: '/var/log/agentctl.log' }]);
  });

  it('falls back to stderr without a file, or with a relative one (never a file relative to wherever it runs)', () => {
    expect(logTargets({})).toEqual([{ stderr: true }]);
    expect(logTargets({ AGENTCTL_LOG_FILE: 'logs/agentctl.log' })).toEqual([{ stderr: true }]);
  });
});
