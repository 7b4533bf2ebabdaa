import { describe, expect, it } from 'vitest';
import { launchCommand } from './launchCommand.js';

const posix = 'linux';
const windows = 'win32';

describe('launchCommand', () => {
  it('launches .cmd shims through cmd.exe and .exe launchers directly', () => {
    const cmd = launchCommand('C:\\x\\typescript-language-server.cmd', ['--stdio'], windows, { ComSpec: 'C:\\Windows\\system32\\cmd.exe' });
    // The launcher is always quoted; a plainly inert argument such as --stdio needs no quotes.
    expect(cmd).toEqual({
      command: 'C:\\Windows\\system32\\cmd.exe',
      args: ['/d', '/s', '/c', '""C:\\x\\typescript-language-server.cmd" --stdio"'],
      windowsVerbatimArguments: true,
    });
    expect(launchCommand('C:\\x\\gopls.exe', [], windows, {})).toEqual({ command: 'C:\\x\\gopls.exe', args: [], windowsVerbatimArguments: false });
    expect(launchCommand('/usr/bin/gopls', [], posix, {})).toEqual({ command: '/usr/bin/gopls', args: [], windowsVerbatimArguments: false });
  });

  it('runs a Windows .cmd through the command interpreter, quoting arguments with spaces', () => {
    const line = launchCommand('C:\\Program Files\\nodejs\\npm.cmd', ['install', '--prefix', 'C:\\Users\\A B\\x'], windows, {
      ComSpec: 'C:\\Windows\\System32\\cmd.exe',
    });
    expect(line.command).toBe('C:\\Windows\\System32\\cmd.exe');
    expect(line.args).toEqual(['/d', '/s', '/c', '""C:\\Program Files\\nodejs\\npm.cmd" install --prefix "C:\\Users\\A B\\x""']);
    expect(line.windowsVerbatimArguments).toBe(true);
  });

  it('quotes cmd.exe metacharacters and empty arguments, doubling embedded quotes', () => {
    const line = launchCommand('C:\\n\\npm.cmd', ['a&b', '--loglevel=notice', '', 'say "hi"', '50%'], windows, {});
    expect(line.command).toBe('cmd.exe');
    expect(line.args[3]).toBe('""C:\\n\\npm.cmd" "a&b" "--loglevel=notice" "" "say ""hi""" "50%""');
  });

  it('spawns everything else directly', () => {
    expect(launchCommand('/usr/bin/npm', ['install'], posix, {})).toEqual({ command: '/usr/bin/npm', args: ['install'], windowsVerbatimArguments: false });
    expect(launchCommand('C:\\Go\\bin\\go.exe', ['env'], windows, {}).command).toBe('C:\\Go\\bin\\go.exe');
  });

  it('reads ComSpec case-insensitively on Windows and ignores an empty one', () => {
    expect(launchCommand('C:\\n\\npm.cmd', [], windows, { COMSPEC: 'D:\\cmd.exe' }).command).toBe('D:\\cmd.exe');
    expect(launchCommand('C:\\n\\npm.cmd', [], windows, { ComSpec: '' }).command).toBe('cmd.exe');
  });
});
