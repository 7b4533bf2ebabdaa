/** Something that can greet people by name. */
export interface Greeter {
  greet(name: string): string;
  farewell(name: string): string;
}

/** Creates a greeter that puts `prefix` before every name. */
export function createGreeter(prefix: string): Greeter {
  return {
    greet: (name) => `${prefix}, ${name}!`,
    farewell: (name) => `Goodbye, ${name}.`,
  };
}
