import { statSync } from 'node:fs';

/** True for an existing folder (following symlinks); false for anything else, including errors. */
export function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
