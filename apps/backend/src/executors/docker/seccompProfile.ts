/**
 * Kandev's own seccomp profile for task containers (`KANDEV_DOCKER_SECCOMP=sandbox`, the default).
 *
 * Why not Docker's default profile: it refuses new namespaces (`unshare`, `clone` with
 * `CLONE_NEWUSER`/`CLONE_NEWNET`...) and `mount` to a process without `CAP_SYS_ADMIN`, which is what
 * bubblewrap needs to take an untrusted workspace's language servers off the network
 * (docs/workspace-trust.md). So this profile is a deny list of our own design: every system call is
 * allowed except the ones below, each refused with EPERM. Namespaces, `mount`, `umount2`,
 * `pivot_root` and `setns` stay allowed on purpose.
 *
 * What still holds with it: the container keeps Docker's default capability set (no
 * `CAP_SYS_ADMIN`, `CAP_SYS_MODULE`, `CAP_SYS_TIME`, `CAP_SYS_BOOT`...), so most calls here would
 * fail anyway for a process of the container itself; the list is a second wall, and the only wall
 * for a process that gains capabilities inside a user namespace of its own. What it gives up:
 * see "The trade-off" in docs/workspace-trust.md.
 *
 * The rules cover every ABI the kernel accepts from a process, not only the native one: a 64-bit
 * x86 kernel also takes i386 calls (`int 0x80`) and x32 ones, under other numbers, and a rule for
 * the native ABI alone would leave those open. `archMap` lets dockerd pick the entry of its own
 * machine (the profile is written by the backend, which may talk to another Docker host).
 */
export interface SeccompProfile {
  defaultAction: 'SCMP_ACT_ALLOW';
  archMap: Array<{ architecture: string; subArchitectures: string[] }>;
  syscalls: Array<{ names: string[]; action: 'SCMP_ACT_ERRNO'; errnoRet: number; comment: string }>;
}

const EPERM = 1;

/** Refused calls, grouped by why. A name the kernel or libseccomp does not know is skipped by runc. */
export const DENIED_SYSCALLS: ReadonlyArray<{ why: string; names: string[] }> = [
  { why: 'load or replace the running kernel, or restart the machine', names: ['kexec_load', 'kexec_file_load', 'reboot'] },
  { why: 'load and unload kernel modules: code in the kernel', names: ['init_module', 'finit_module', 'delete_module'] },
  {
    why: 'eBPF programs and perf events: large kernel attack surfaces, and perf reads other processes and the kernel',
    names: ['bpf', 'perf_event_open'],
  },
  { why: 'the kernel keyring is not namespaced: keys of the host and of other containers', names: ['keyctl', 'add_key', 'request_key'] },
  { why: 'the clock is not namespaced: changing it changes it for the whole machine', names: ['settimeofday', 'clock_settime', 'clock_adjtime', 'adjtimex'] },
  { why: 'machine-wide switches: process accounting, swap, quotas, the kernel log', names: ['acct', 'swapon', 'swapoff', 'quotactl', 'quotactl_fd', 'syslog'] },
  {
    why: 'open a file by its handle, bypassing the mount namespace: the classic way out of a container to the host file system',
    names: ['open_by_handle_at', 'name_to_handle_at'],
  },
  { why: 'userfaultfd stretches kernel race windows at will, a staple of kernel exploits', names: ['userfaultfd'] },
  { why: 'raw I/O ports of the machine', names: ['iopl', 'ioperm'] },
  {
    why: 'io_uring: a second path to most system calls and a frequent source of kernel flaws; Node.js (libuv) falls back to threads',
    names: ['io_uring_setup', 'io_uring_enter', 'io_uring_register'],
  },
  {
    why: 'the new mount API: the powers of mount(2) through a younger interface; bubblewrap uses mount(2) only',
    names: ['fsopen', 'fsconfig', 'fsmount', 'fspick', 'move_mount', 'open_tree', 'mount_setattr'],
  },
  { why: 'obsolete interfaces nothing in a task needs', names: ['lookup_dcookie', 'nfsservctl', 'uselib', 'vm86', 'vm86old', 'ustat', 'sysfs', '_sysctl'] },
];

/** Each machine architecture and the other ABIs its kernel runs (a 64-bit ARM kernel may run 32-bit ARM). */
const ARCH_MAP: SeccompProfile['archMap'] = [
  { architecture: 'SCMP_ARCH_X86_64', subArchitectures: ['SCMP_ARCH_X86', 'SCMP_ARCH_X32'] },
  { architecture: 'SCMP_ARCH_AARCH64', subArchitectures: ['SCMP_ARCH_ARM'] },
];

export function seccompProfile(): SeccompProfile {
  return {
    defaultAction: 'SCMP_ACT_ALLOW',
    archMap: ARCH_MAP.map((a) => ({ ...a, subArchitectures: [...a.subArchitectures] })),
    syscalls: DENIED_SYSCALLS.map(({ why, names }) => ({ names: [...names], action: 'SCMP_ACT_ERRNO', errnoRet: EPERM, comment: why })),
  };
}

/** The container's `HostConfig.SecurityOpt` entry: Docker takes the profile itself, as JSON. */
export function seccompSecurityOpt(): string {
  return `seccomp=${JSON.stringify(seccompProfile())}`;
}
