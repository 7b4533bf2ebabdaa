/**
 * file:// URIs as servers see them. Written once here so agentctl, backend and browser agree on
 * one canonical spelling (VS Code's: lower-case drive letter, encoded colon on Windows paths).
 */
function encodeSegment(segment: string): string {
  return encodeURIComponent(segment).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** Absolute POSIX path (or Windows `C:\\x` / `C:/x`) to a canonical file URI. */
export function pathToFileUri(path: string): string {
  // `/C:/x` is how a Windows path looks after fileUriToPath; treat it like `C:/x`.
  let p = path.replace(/\\/g, '/').replace(/^\/([A-Za-z]:)/, '$1');
  const drive = /^([A-Za-z]):(\/|$)/.exec(p);
  if (drive) p = `/${(drive[1] as string).toLowerCase()}:${p.slice(2)}`;
  if (!p.startsWith('/')) throw new Error(`not an absolute path: ${path}`);
  const segments = p.split('/').map((seg, i) => (drive && i === 1 ? seg.replace(':', '%3A') : encodeSegment(seg)));
  return `file://${segments.join('/')}`;
}

/** Canonical file URI to a POSIX path (`/c:/x` stays as is; Windows hosts convert it themselves). */
export function fileUriToPath(uri: string): string {
  if (!uri.startsWith('file://')) throw new Error(`not a file URI: ${uri.slice(0, 64)}`);
  const rest = uri.slice('file://'.length);
  const slash = rest.indexOf('/');
  const pathPart = slash < 0 ? '/' : rest.slice(slash);
  return decodeURIComponent(pathPart);
}

/** Re-spells any file URI canonically, so `file:///C%3A/x` and `file:///c:/x` compare equal. */
export function canonicalFileUri(uri: string): string {
  return pathToFileUri(fileUriToPath(uri));
}

/** The workspace-relative path of a URI, or undefined when it lies outside the workspace. */
export function relativePathInWorkspace(workspaceUri: string, uri: string): string | undefined {
  const root = fileUriToPath(canonicalFileUri(workspaceUri)).replace(/\/+$/, '');
  const target = fileUriToPath(canonicalFileUri(uri));
  if (target === root) return '';
  if (!target.startsWith(`${root}/`)) return undefined;
  const rel = target.slice(root.length + 1);
  return rel.split('/').includes('..') ? undefined : rel;
}
