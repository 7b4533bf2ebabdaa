/** Installs `source` at `target` by rename, or not at all when the bytes are the same. */
export function installAddon(source: string, target: string): 'unchanged' | 'replaced';
