import { describe, expect, it } from 'vitest';
import { AGENTCTL_ENV, MAX_LISTENING_LINE, agentctlLaunchEnv, formatListeningLine, isAgentctlVariable, parseListeningLine } from './agentctlLaunch.js';

describe('agentctl launch contract', () => {
  it('the formatted listening line parses back to its port', () => {
    const line = formatListeningLine(4321);
    expect(line.endsWith('\n')).toBe(true);
    expect(parseListeningLine(line.trimEnd())).toBe(4321);
  });

  it.each([
    ['another stdout line', 'hello from a library'],
    ['another event', '{"event":"ready","port":80}'],
    ['port 0', '{"event":"listening","port":0}'],
    ['a port out of range', '{"event":"listening","port":65536}'],
    ['a fractional port', '{"event":"listening","port":80.5}'],
    ['a port as text', '{"event":"listening","port":"80"}'],
    ['JSON null', 'null'],
    ['an over-long line', `{"event":"listening","port":80,"pad":"${'x'.repeat(MAX_LISTENING_LINE)}"}`],
  ])('ignores %s', (_name, line) => {
    expect(parseListeningLine(line)).toBeUndefined();
  });

  it('builds the env both executors hand agentctl', () => {
    expect(agentctlLaunchEnv({ token: 't', workspacePath: '/w', repoSubpaths: ['a'], host: '127.0.0.1', port: 0, exitOnStdinClose: true })).toEqual({
      AGENTCTL_TOKEN: 't',
      AGENTCTL_WORKSPACE: '/w',
      AGENTCTL_REPOS: '["a"]',
      AGENTCTL_HOST: '127.0.0.1',
      AGENTCTL_PORT: '0',
      AGENTCTL_EXIT_ON_STDIN_CLOSE: '1',
    });
    expect(agentctlLaunchEnv({ token: 't', workspacePath: '/w', repoSubpaths: [], host: 'h', port: 1, exitOnStdinClose: false })).not.toHaveProperty(
      AGENTCTL_ENV.exitOnStdinClose,
    );
  });

  it("names agentctl's own log file only when there is one", () => {
    const base = { token: 't', workspacePath: '/w', repoSubpaths: [], host: '127.0.0.1', port: 0, exitOnStdinClose: true };
    expect(agentctlLaunchEnv({ ...base, logFile: '/h/logs/agentctl-s.log', logMaxBytes: 1024 })).toMatchObject({
      AGENTCTL_LOG_FILE: '/h/logs/agentctl-s.log',
      AGENTCTL_LOG_MAX_BYTES: '1024',
    });
    expect(Object.keys(agentctlLaunchEnv(base)).filter((k) => k.startsWith('AGENTCTL_LOG'))).toEqual([]);
  });

  it('recognizes agentctl variables in any case', () => {
    expect(isAgentctlVariable('AGENTCTL_TOKEN')).toBe(true);
    expect(isAgentctlVariable('agentctl_token')).toBe(true);
    expect(isAgentctlVariable('PATH')).toBe(false);
  });
});
