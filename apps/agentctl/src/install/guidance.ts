/**
 * Copy for people, in English, because it travels as installer detail (install_failed.error) and
 * close-4007 guidance. The browser shows its own localized copy per close code around it.
 */
/** A release-installed server on a host its release builds do not cover (per-language guidance lives in the descriptors). */
export function unsupportedHostGuidance(binary: string, manualCommand: string, platform: string, arch: string): string {
  return (
    `No ${binary} release build is installed automatically for ${platform}/${arch}. Install ${binary} manually ` +
    `(for example \`${manualCommand}\`), make sure it is on the task's PATH, then reopen the file.`
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
