import { isRecord } from '@kandev/protocol';
import type { CreateFilesParams, DeleteFilesParams, RenameFilesParams, WorkspaceEdit } from 'vscode-languageserver-protocol';
import type { ServerCapabilityIndex } from '../capabilities.js';
import { globToRegExp } from '../documentSelector.js';
import type { FeatureContext } from '../features.js';

/** A server's file operation filter (LSP `FileOperationFilter`, which the protocol package does not export). */
export interface FileOperationFilter {
  scheme?: string;
  pattern: { glob: string; matches?: 'file' | 'folder'; options?: { ignoreCase?: boolean } };
}

/** The files a WorkspaceEdit creates, renames and deletes, as the server URIs it gave. */
export interface FileOperationBatch {
  create: CreateFilesParams['files'];
  rename: RenameFilesParams['files'];
  delete: DeleteFilesParams['files'];
}

type Kind = keyof FileOperationBatch;
type Phase = 'will' | 'did';

const METHODS: Record<Phase, Record<Kind, string>> = {
  will: { create: 'workspace/willCreateFiles', rename: 'workspace/willRenameFiles', delete: 'workspace/willDeleteFiles' },
  did: { create: 'workspace/didCreateFiles', rename: 'workspace/didRenameFiles', delete: 'workspace/didDeleteFiles' },
};
/** Keys of `ServerCapabilities.workspace.fileOperations`. */
const STATIC_KEYS: Record<Phase, Record<Kind, string>> = {
  will: { create: 'willCreate', rename: 'willRename', delete: 'willDelete' },
  did: { create: 'didCreate', rename: 'didRename', delete: 'didDelete' },
};

/** Resource operations of a WorkspaceEdit (only `documentChanges` has them), in the server's order. */
export function fileOperationBatch(edit: WorkspaceEdit): FileOperationBatch {
  const batch: FileOperationBatch = { create: [], rename: [], delete: [] };
  if (!isRecord(edit) || !Array.isArray(edit.documentChanges)) return batch;
  for (const change of edit.documentChanges as unknown[]) {
    if (!isRecord(change)) continue;
    if (change.kind === 'create' && typeof change.uri === 'string') batch.create.push({ uri: change.uri });
    if (change.kind === 'delete' && typeof change.uri === 'string') batch.delete.push({ uri: change.uri });
    if (change.kind === 'rename' && typeof change.oldUri === 'string' && typeof change.newUri === 'string')
      batch.rename.push({ oldUri: change.oldUri, newUri: change.newUri });
  }
  return batch;
}

export function isEmptyBatch(batch: FileOperationBatch): boolean {
  return batch.create.length === 0 && batch.rename.length === 0 && batch.delete.length === 0;
}

/**
 * The filters a server gave for one operation, from its static `workspace.fileOperations` and its
 * dynamic registrations of the method; undefined when it asked for neither (nothing is sent).
 */
export function fileOperationFilters(capabilities: ServerCapabilityIndex, phase: Phase, kind: Kind): FileOperationFilter[] | undefined {
  let filters: FileOperationFilter[] | undefined;
  const workspace = isRecord(capabilities.server.workspace) ? capabilities.server.workspace : undefined;
  const operations = isRecord(workspace?.fileOperations) ? workspace.fileOperations : undefined;
  const fromStatic = operations?.[STATIC_KEYS[phase][kind]];
  if (isRecord(fromStatic) && Array.isArray(fromStatic.filters)) filters = [...(fromStatic.filters as FileOperationFilter[])];
  for (const reg of capabilities.dynamicRegistrations()) {
    if (reg.method !== METHODS[phase][kind]) continue;
    const options = isRecord(reg.registerOptions) ? reg.registerOptions : {};
    filters = [...(filters ?? []), ...(Array.isArray(options.filters) ? (options.filters as FileOperationFilter[]) : [])];
  }
  return filters;
}

/**
 * Whether a URI passes one of the filters: scheme, then the glob on the URI's path. A resource
 * operation does not say whether it names a file or a folder, so `matches` is not used to exclude:
 * a folder-only filter is also offered the files (the server decides; it knows its own filters).
 */
export function matchesFileOperationFilters(filters: readonly FileOperationFilter[], uri: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(uri);
  } catch {
    return false;
  }
  const scheme = parsed.protocol.replace(/:$/, '');
  const path = decodeURIComponent(parsed.pathname);
  return filters.some((filter) => {
    if (!isRecord(filter) || !isRecord(filter.pattern) || typeof filter.pattern.glob !== 'string') return false;
    if (typeof filter.scheme === 'string' && filter.scheme !== scheme) return false;
    const ignoreCase = isRecord(filter.pattern.options) && filter.pattern.options.ignoreCase === true;
    const glob = ignoreCase ? filter.pattern.glob.toLowerCase() : filter.pattern.glob;
    return globToRegExp(glob).test(ignoreCase ? path.toLowerCase() : path);
  });
}

/** One connection's part in a WorkspaceEdit that creates, renames or deletes files. */
export interface FileOperationParticipant {
  /** `workspace/will*Files` for the operations its server filters in: the edits it asks for first. */
  willApply(batch: FileOperationBatch): Promise<WorkspaceEdit[]>;
  /** `workspace/did*Files` after the batch was applied. */
  didApply(batch: FileOperationBatch): void;
}

function matching(capabilities: ServerCapabilityIndex, phase: Phase, kind: Kind, batch: FileOperationBatch): Array<FileOperationBatch[Kind][number]> {
  const filters = fileOperationFilters(capabilities, phase, kind);
  if (!filters) return [];
  const files = batch[kind] as Array<{ uri?: string; oldUri?: string; newUri?: string }>;
  return files.filter((f) => matchesFileOperationFilters(filters, f.uri ?? f.oldUri ?? '')) as Array<FileOperationBatch[Kind][number]>;
}

const KINDS: Kind[] = ['create', 'rename', 'delete'];

/** A participant speaking for one connection generation; it reads the filters at each call (dynamic registration). */
export function fileOperationParticipant(context: Pick<FeatureContext, 'capabilities' | 'request' | 'notify'>): FileOperationParticipant {
  return {
    async willApply(batch) {
      const edits: WorkspaceEdit[] = [];
      for (const kind of KINDS) {
        const files = matching(context.capabilities, 'will', kind, batch);
        if (files.length === 0) continue;
        try {
          const edit = await context.request<WorkspaceEdit | null>(METHODS.will[kind], { files });
          if (isRecord(edit)) edits.push(edit);
        } catch {
          // A participant that fails does not stop the operation (as in VS Code); its edits are skipped.
        }
      }
      return edits;
    },
    didApply(batch) {
      for (const kind of KINDS) {
        const files = matching(context.capabilities, 'did', kind, batch);
        if (files.length > 0) context.notify(METHODS.did[kind], { files });
      }
    },
  };
}

/**
 * The participants' edits first, then the original one, as one WorkspaceEdit: applied all or
 * nothing like any other, with the participants' text edits made on the files before they move.
 */
export function withParticipantEdits(before: readonly WorkspaceEdit[], edit: WorkspaceEdit): WorkspaceEdit {
  const asDocumentChanges = (e: WorkspaceEdit): NonNullable<WorkspaceEdit['documentChanges']> => {
    if (Array.isArray(e.documentChanges)) return e.documentChanges;
    return Object.entries(e.changes ?? {}).map(([uri, edits]) => ({ textDocument: { uri, version: null }, edits }));
  };
  const annotations = Object.assign({}, ...[...before, edit].map((e) => e.changeAnnotations ?? {})) as WorkspaceEdit['changeAnnotations'];
  const merged: WorkspaceEdit = { documentChanges: [...before.flatMap(asDocumentChanges), ...asDocumentChanges(edit)] };
  if (annotations && Object.keys(annotations).length > 0) merged.changeAnnotations = annotations;
  return merged;
}
