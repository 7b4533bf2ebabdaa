import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runScript, scratchTrees } from './lib/scratchTree.js';

const script = join(dirname(fileURLToPath(import.meta.url)), 'check-bench-results.mjs');
const tree = scratchTrees('check-bench-results-');

describe('check-bench-results', () => {
  it('passes figures, repository-relative paths and system programs', () => {
    const root = tree({
      'latest.md': [
        '# npm run bench',
        '',
        'Node v20, 2 CPUs, load 2.1',
        '- 6382 /usr/bin/node apps/agentctl/dist/agentctl.mjs',
        '| 200 B | 0.32 ms |',
        '',
      ].join('\n'),
      'run.json': JSON.stringify({ at: '2026-12-06', p50: 0.32, agents: 'MCP agent leases' }),
    });
    const result = runScript(script, root);
    expect(result.output).toContain('no machine path or authorship words in 2 result files');
    expect(result.status).toBe(0);
  });

  it('names each machine path and each word about who ran it, with file and line', () => {
    const root = tree({
      'soak.md': ['# soak', '- 6382 /usr/bin/node /work/wt/soak2/apps/agentctl/dist/agentctl.mjs', 'shared with two other helpers', ''].join('\n'),
      'nested/profile.json': JSON.stringify({ profile: '/tmp/kandev-bench-1/cpu.cpuprofile' }),
      'notes.txt': 'home: /home/someone/kandev\n',
    });
    const result = runScript(script, root);
    expect(result.status).toBe(1);
    expect(result.output).toContain('soak.md:2: "/work/wt/soak2/apps/agentctl/dist/agentctl.mjs": a path of the machine that ran it');
    expect(result.output).toContain('soak.md:3: "helpers": words about who ran or wrote it');
    expect(result.output).toContain('profile.json:1: "/tmp/kandev-bench-1/cpu.cpuprofile"');
    expect(result.output).toContain('notes.txt:1: "/home/someone/kandev"');
  });
});
