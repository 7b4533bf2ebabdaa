import type { ApplyConflict, ApplyFilesResponse, FileOperation } from '@kandev/protocol';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { MAX_READ_BYTES } from './read.js';
import { fail, ok, type FilesError, type FilesResult } from '../base/filesResult.js';
import { contentVersion, fileVersion } from './version.js';
import type { Workspace } from './workspace.js';
import { atomicWrite, withPathLocks } from './write.js';

export type ApplyOutcome = FilesResult<ApplyFilesResponse> | { ok: false; error: FilesError; conflicts: ApplyConflict[] };

/** A confined operation: every path resolved to the real path it touches. */
type Resolved =
  | { kind: 'write'; path: string; target: string; content: string; baseVersion?: string }
  | { kind: 'create'; path: string; target: string; overwrite: boolean; ignoreIfExists: boolean }
  | { kind: 'rename'; from: string; fromTarget: string; to: string; toTarget: string; overwrite: boolean; ignoreIfExists: boolean }
  | { kind: 'delete'; path: string; target: string; recursive: boolean; ignoreIfNotExists: boolean };

/** What a path holds at one point of the simulated batch. */
interface Slot {
  exists: boolean;
  directory: boolean;
  /** sha256 of the bytes on disk, when the batch has not touched the path yet. */
  diskVersion: string | undefined;
  touched: boolean;
}

async function diskSlot(target: string): Promise<Slot> {
  try {
    const st = await stat(target);
    if (st.isDirectory()) return { exists: true, directory: true, diskVersion: undefined, touched: false };
    const version = await fileVersion(target, MAX_READ_BYTES);
    return { exists: true, directory: false, diskVersion: version === 'not_file' ? 'too_large' : version, touched: false };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    return { exists: false, directory: false, diskVersion: '', touched: false };
  }
}

/**
 * Rename and delete act on the named entry itself: a path reached through a symbolic link is
 * refused rather than renaming or deleting what the link points at.
 */
async function confineEntry(workspace: Workspace, path: string, mustExist: boolean): Promise<FilesResult<string>> {
  const existing = await workspace.confineExisting(path);
  if (existing.ok) {
    if (existing.value.rel.segments.length === 0) return fail(400, 'bad_request', 'the workspace root cannot be renamed or deleted');
    if (existing.value.real !== join(workspace.real, ...existing.value.rel.segments)) return fail(400, 'bad_request', 'links are not renamed or deleted');
    return ok(existing.value.real);
  }
  if (existing.error.code === 'not_found' && !mustExist) {
    const target = await workspace.confineForWrite(path);
    return target.ok ? ok(target.value.target) : target;
  }
  return existing.error.code === 'not_found' ? ok(join(workspace.real, path)) : existing;
}

async function resolve(workspace: Workspace, op: FileOperation): Promise<FilesResult<Resolved>> {
  switch (op.kind) {
    case 'write':
    case 'create': {
      const target = await workspace.confineForWrite(op.path);
      if (!target.ok) return target;
      if (op.kind === 'write') return ok({ kind: 'write', path: op.path, target: target.value.target, content: op.content, baseVersion: op.baseVersion });
      return ok({ kind: 'create', path: op.path, target: target.value.target, overwrite: op.overwrite === true, ignoreIfExists: op.ignoreIfExists === true });
    }
    case 'rename': {
      const from = await confineEntry(workspace, op.from, false);
      if (!from.ok) return from;
      const to = await workspace.confineForWrite(op.to);
      if (!to.ok && to.error.code !== 'bad_request') return to;
      const toTarget = to.ok ? to.value.target : await confineEntry(workspace, op.to, true);
      if (typeof toTarget !== 'string' && !toTarget.ok) return toTarget;
      return ok({
        kind: 'rename',
        from: op.from,
        fromTarget: from.value,
        to: op.to,
        toTarget: typeof toTarget === 'string' ? toTarget : toTarget.value,
        overwrite: op.overwrite === true,
        ignoreIfExists: op.ignoreIfExists === true,
      });
    }
    case 'delete': {
      const target = await confineEntry(workspace, op.path, false);
      if (!target.ok) return target;
      return ok({ kind: 'delete', path: op.path, target: target.value, recursive: op.recursive === true, ignoreIfNotExists: op.ignoreIfNotExists === true });
    }
  }
}

/**
 * Checks the whole batch against the disk before anything is written: a write whose base version
 * no longer matches, a create over an existing file, a rename or delete of a missing one. Returns
 * the operations to run (skipping the ones the LSP options say to ignore) or every conflict.
 */
async function plan(ops: Resolved[]): Promise<{ run: Resolved[]; conflicts: ApplyConflict[] }> {
  const slots = new Map<string, Slot>();
  const slot = async (target: string): Promise<Slot> => {
    let s = slots.get(target);
    if (!s) slots.set(target, (s = await diskSlot(target)));
    return s;
  };
  const conflicts: ApplyConflict[] = [];
  const run: Resolved[] = [];
  const set = (target: string, exists: boolean, directory = false) => slots.set(target, { exists, directory, diskVersion: undefined, touched: true });
  for (const op of ops) {
    switch (op.kind) {
      case 'write': {
        const s = await slot(op.target);
        if (s.directory) conflicts.push({ path: op.path, reason: 'exists' });
        else if (op.baseVersion !== undefined && !s.touched && op.baseVersion !== s.diskVersion)
          conflicts.push({ path: op.path, reason: 'changed', currentVersion: s.diskVersion });
        set(op.target, true);
        run.push(op);
        break;
      }
      case 'create': {
        const s = await slot(op.target);
        if (s.exists && !op.overwrite) {
          if (!op.ignoreIfExists) conflicts.push({ path: op.path, reason: 'exists' });
          break;
        }
        set(op.target, true);
        run.push(op);
        break;
      }
      case 'rename': {
        const from = await slot(op.fromTarget);
        const to = await slot(op.toTarget);
        if (!from.exists) {
          conflicts.push({ path: op.from, reason: 'missing' });
          break;
        }
        if (to.exists && !op.overwrite) {
          if (!op.ignoreIfExists) conflicts.push({ path: op.to, reason: 'exists' });
          break;
        }
        set(op.toTarget, true, from.directory);
        set(op.fromTarget, false);
        run.push(op);
        break;
      }
      case 'delete': {
        const s = await slot(op.target);
        if (!s.exists) {
          if (!op.ignoreIfNotExists) conflicts.push({ path: op.path, reason: 'missing' });
          break;
        }
        set(op.target, false);
        run.push(op);
        break;
      }
    }
  }
  return { run, conflicts };
}

async function ensureParent(target: string): Promise<void> {
  await mkdir(dirname(target), { recursive: true });
}

async function execute(op: Resolved, versions: Record<string, string>): Promise<void> {
  switch (op.kind) {
    case 'write': {
      const bytes = Buffer.from(op.content, 'utf8');
      await ensureParent(op.target);
      let mode: number | undefined;
      try {
        mode = (await stat(op.target)).mode & 0o7777;
      } catch {
        mode = undefined;
      }
      await atomicWrite(op.target, bytes, mode);
      versions[op.path] = contentVersion(bytes);
      return;
    }
    case 'create':
      await ensureParent(op.target);
      await atomicWrite(op.target, Buffer.alloc(0), undefined);
      versions[op.path] = contentVersion(Buffer.alloc(0));
      return;
    case 'rename':
      await ensureParent(op.toTarget);
      if (op.overwrite) await rm(op.toTarget, { recursive: true, force: true });
      await rename(op.fromTarget, op.toTarget);
      delete versions[op.from];
      return;
    case 'delete':
      await rm(op.target, { recursive: op.recursive, force: false });
      delete versions[op.path];
      return;
  }
}

/**
 * Applies a batch of file operations as one unit: every path is confined first, every version
 * and existence precondition is checked with the batch's paths locked, and only when all of them
 * hold is anything written. A refused batch writes nothing (409 with every conflict).
 */
export async function applyFileOperations(workspace: Workspace, operations: FileOperation[]): Promise<ApplyOutcome> {
  const resolved: Resolved[] = [];
  for (const op of operations) {
    if (op.kind === 'write' && Buffer.byteLength(op.content, 'utf8') > MAX_READ_BYTES)
      return fail(413, 'too_large', `content is larger than ${MAX_READ_BYTES} bytes`);
    const r = await resolve(workspace, op);
    if (!r.ok) return r;
    resolved.push(r.value);
  }
  const targets = resolved.flatMap((op) => (op.kind === 'rename' ? [op.fromTarget, op.toTarget] : [op.target]));
  return withPathLocks(targets, async (): Promise<ApplyOutcome> => {
    const { run, conflicts } = await plan(resolved);
    if (conflicts.length > 0) {
      return { ok: false, error: { status: 409, code: 'conflict', message: 'files changed since they were read' }, conflicts };
    }
    const versions: Record<string, string> = {};
    for (const op of run) await execute(op, versions);
    return ok({ versions });
  });
}
