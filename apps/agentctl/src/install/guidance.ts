/**
 * Copy for people, in English, because it travels as installer detail (install_failed.error) and
 * close-4007 guidance. The browser shows its own localized copy per close code around it.
 */
export const KOTLIN_GUIDANCE =
  'Kotlin has no automatic installer. Install kotlin-lsp manually (JetBrains kotlin-lsp, which needs Java 17 or newer) ' +
  "on the task host, make sure `kotlin-lsp` is on the task's PATH, then reopen the file.";

export const CLANGD_GUIDANCE =
  "C and C++ use clangd, which Kandev never installs: it comes from the task host's package manager " +
  '(Debian/Ubuntu: `apt-get install clangd`; Fedora: `dnf install clang-tools-extra`; macOS: `brew install llvm`). ' +
  "Make sure `clangd` is on the task's PATH and the repository has a compile_commands.json, then reopen the file.";

export const RUST_WINDOWS_GUIDANCE =
  'rust-analyzer is not installed automatically on Windows task hosts. Install it with ' +
  "`rustup component add rust-analyzer` (or download rust-analyzer.exe), make sure it is on the task's PATH, then reopen the file.";

export function rustUnsupportedHostGuidance(platform: string, arch: string): string {
  return (
    `No rust-analyzer release build is installed automatically for ${platform}/${arch}. Install rust-analyzer manually ` +
    "(for example `rustup component add rust-analyzer`), make sure it is on the task's PATH, then reopen the file."
  );
}

export const NO_HOME =
  'The task environment has no absolute HOME (or USERPROFILE on Windows), so there is nowhere to install ' +
  'language servers ($HOME/.kandev/lsp-servers). Set HOME for the task, or install the server manually on its PATH.';

export function toolMissing(tool: 'npm' | 'go', server: string): string {
  const install = tool === 'npm' ? 'Node.js 20 or newer with npm' : 'Go';
  return (
    `Cannot install ${server}: \`${tool}\` was not found on the task's PATH (absolute entries only). ` +
    `Install ${install} on the task host or add it to the task's PATH, or install ${server} manually.`
  );
}
