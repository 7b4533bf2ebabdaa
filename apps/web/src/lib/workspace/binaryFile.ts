/** A file whose content is not text (it contains NUL characters): no model is made for it. */
export class BinaryFileError extends Error {
  constructor(readonly path: string) {
    super(`binary file: ${path}`);
    this.name = 'BinaryFileError';
  }
}

export function looksBinary(content: string): boolean {
  return content.includes('\u0000');
}
