import { describe, expect, it } from 'vitest';
import { DENIED_SYSCALLS, seccompProfile } from './seccompProfile.js';

describe("Kandev's seccomp profile for task containers", () => {
  const profile = seccompProfile();
  const denied = profile.syscalls.flatMap((rule) => rule.names);

  it('allows by default and refuses its list with EPERM, each group saying why', () => {
    expect(profile.defaultAction).toBe('SCMP_ACT_ALLOW');
    for (const rule of profile.syscalls) {
      expect(rule).toMatchObject({ action: 'SCMP_ACT_ERRNO', errnoRet: 1 });
      expect(rule.comment.length).toBeGreaterThan(10);
    }
    expect(denied).toEqual(DENIED_SYSCALLS.flatMap((group) => group.names));
    expect(new Set(denied).size).toBe(denied.length);
  });

  it('refuses what reaches past the container: kernel code, the keyring, the clock, file handles, raw I/O', () => {
    for (const name of [
      'kexec_load',
      'init_module',
      'finit_module',
      'bpf',
      'perf_event_open',
      'keyctl',
      'add_key',
      'clock_settime',
      'settimeofday',
      'open_by_handle_at',
      'userfaultfd',
      'iopl',
      'ioperm',
    ])
      expect(denied).toContain(name);
  });

  it('leaves bubblewrap what it needs: new namespaces, mount, umount2, pivot_root, setns', () => {
    for (const name of ['unshare', 'clone', 'clone3', 'mount', 'umount2', 'pivot_root', 'setns']) expect(denied).not.toContain(name);
  });

  it('covers the other ABIs a 64-bit kernel runs (i386 and x32 on x86-64, 32-bit ARM on arm64)', () => {
    expect(profile.archMap).toEqual([
      { architecture: 'SCMP_ARCH_X86_64', subArchitectures: ['SCMP_ARCH_X86', 'SCMP_ARCH_X32'] },
      { architecture: 'SCMP_ARCH_AARCH64', subArchitectures: ['SCMP_ARCH_ARM'] },
    ]);
  });
});
