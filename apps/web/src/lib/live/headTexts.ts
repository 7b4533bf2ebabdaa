/**
 * Texts of files at HEAD, read once per (HEAD commit, path) and forgotten when HEAD moves (a
 * commit, a checkout). Undefined: HEAD has no such file (added or untracked) or no commit yet.
 */
export class HeadTexts {
  private head: string | null | undefined;
  private readonly cache = new Map<string, Promise<string | undefined>>();

  constructor(private readonly read: (path: string) => Promise<string | undefined>) {}

  /** The HEAD commit the texts belong to (from the latest git state). */
  setHead(head: string | null | undefined): void {
    if (head === this.head) return;
    this.head = head;
    this.cache.clear();
  }

  get(path: string): Promise<string | undefined> {
    if (this.head === null) return Promise.resolve(undefined);
    let text = this.cache.get(path);
    if (!text) {
      text = this.read(path);
      this.cache.set(path, text);
      // A failed read (task host away) is tried again next time.
      text.catch(() => {
        if (this.cache.get(path) === text) this.cache.delete(path);
      });
    }
    return text;
  }
}
