import type { WorkspaceEdit } from 'vscode-languageserver-protocol';

/**
 * What a person can do to the files of a workspace from the Files panel. A new file may name
 * folders on the way (`lib/util.ts` in `src` creates `src/lib/util.ts`), as a folder is only ever
 * made to hold a file.
 */
export type FileAction =
  { kind: 'create'; path: string } | { kind: 'rename'; from: string; to: string; directory: boolean } | { kind: 'delete'; path: string; directory: boolean };

/** Why a name typed into the Files panel cannot be used; each is a catalog key `files.name.<reason>`. */
export type NameProblem = 'empty' | 'separator' | 'dots' | 'invalid' | 'exists' | 'unchanged';

/** The folder a path is in ('' for the workspace root). */
export function parentFolder(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash === -1 ? '' : path.slice(0, slash);
}

export function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

export function joinPath(folder: string, name: string): string {
  return folder ? `${folder}/${name}` : name;
}

/**
 * Checks a name typed for a new file (`nested`: may contain `/` to create folders on the way) or
 * a rename (one segment). `siblings` are the names already in the folder, when it is listed.
 */
export function nameProblem(name: string, options: { nested: boolean; siblings?: readonly string[]; current?: string }): NameProblem | undefined {
  const trimmed = name.trim();
  if (trimmed === '') return 'empty';
  if (trimmed !== name) return 'invalid'; // leading or trailing spaces are almost always a slip
  if (name.includes('\\') || name.includes('\u0000')) return 'invalid';
  const segments = name.split('/');
  if (!options.nested && segments.length > 1) return 'separator';
  if (segments.some((s) => s === '')) return 'separator';
  if (segments.some((s) => s === '.' || s === '..')) return 'dots';
  if (options.current !== undefined && name === options.current) return 'unchanged';
  // A new nested path may go into a folder that exists; a file or a renamed entry may not take a name in use.
  if (segments.length === 1 && options.siblings?.includes(name)) return 'exists';
  return undefined;
}

function uriOf(workspaceUri: string, path: string): string {
  const base = workspaceUri.endsWith('/') ? workspaceUri : `${workspaceUri}/`;
  return base + path.split('/').map(encodeURIComponent).join('/');
}

/**
 * The action as a WorkspaceEdit on the server URIs of the workspace, so it takes the path of every
 * other file operation: servers that filter it in are asked first (`workspace/will*Files`, whose
 * edits, such as updated imports, are applied with it, all or nothing), then told (`did*Files`).
 * Nothing is overwritten: a target that exists refuses the whole edit.
 */
export function fileActionEdit(action: FileAction, workspaceUri: string): WorkspaceEdit {
  switch (action.kind) {
    case 'create':
      return { documentChanges: [{ kind: 'create', uri: uriOf(workspaceUri, action.path), options: { overwrite: false, ignoreIfExists: false } }] };
    case 'rename':
      return {
        documentChanges: [
          {
            kind: 'rename',
            oldUri: uriOf(workspaceUri, action.from),
            newUri: uriOf(workspaceUri, action.to),
            options: { overwrite: false, ignoreIfExists: false },
          },
        ],
      };
    case 'delete':
      return {
        documentChanges: [{ kind: 'delete', uri: uriOf(workspaceUri, action.path), options: { recursive: action.directory, ignoreIfNotExists: false } }],
      };
  }
}
