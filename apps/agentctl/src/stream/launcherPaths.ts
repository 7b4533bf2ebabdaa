import { isRecord, languageDescriptor, type LanguageId, type LauncherPath } from '@kandev/protocol';
import { typescriptLibNextTo } from '../trust/trustedTools.js';
import { isInside } from '../trust/untrustedEnv.js';

/**
 * The `initializationOptions` entries only the task host can fill (a descriptor's
 * `serverSettings.launcherPaths`): each is found from the launched server's own install, and
 * written into the `initialize` request on its way to the server's stdin. The browser and the
 * backend cannot know these paths; the broker still decides everything else of `initialize`.
 */
const FINDERS: Readonly<Record<LauncherPath, (launcher: string) => string | undefined>> = {
  typescript_lib_next_to_launcher: typescriptLibNextTo,
};

/** Dotted key -> the path found for it (undefined: none, or one inside the workspace). */
export type FoundLauncherPaths = Readonly<Record<string, string | undefined>>;

/** The launcher paths of `language`, found for this launcher; undefined when the language has none. */
export function findLauncherPaths(language: LanguageId, launcher: string, workspaceReal: string, platform: NodeJS.Platform): FoundLauncherPaths | undefined {
  const wanted = languageDescriptor(language).serverSettings.launcherPaths;
  if (!wanted || Object.keys(wanted).length === 0) return undefined;
  const found: Record<string, string | undefined> = {};
  for (const [key, kind] of Object.entries(wanted)) {
    const path = FINDERS[kind](launcher);
    // A server launched from inside the workspace would find the workspace's copy: not a pin.
    found[key] = path !== undefined && !isInside(path, workspaceReal, platform) ? path : undefined;
  }
  return found;
}

/**
 * The `initialize` request's text with the launcher paths in its `initializationOptions`. Trusted,
 * a value the client sent stays (a person may point the server at another TypeScript); untrusted,
 * the found path wins and an entry without one is removed, so nothing the client says can name the
 * workspace's copy. A text that does not decode is returned as it came (the server answers it).
 */
export function fillLauncherPaths(text: string, found: FoundLauncherPaths, untrusted: boolean): string {
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    return text;
  }
  if (!isRecord(message) || !isRecord(message.params)) return text;
  const params = message.params;
  const options: Record<string, unknown> = isRecord(params.initializationOptions) ? { ...params.initializationOptions } : {};
  for (const [key, path] of Object.entries(found)) setAt(options, key.split('.'), path, untrusted);
  return JSON.stringify({ ...message, params: { ...params, initializationOptions: options } });
}

/** Writes (or, untrusted without a path, removes) the value at `keys`, copying the objects on the way. */
function setAt(target: Record<string, unknown>, keys: readonly string[], path: string | undefined, untrusted: boolean): void {
  const [key, ...rest] = keys;
  if (key === undefined) return;
  if (rest.length > 0) {
    const child = isRecord(target[key]) ? { ...target[key] } : {};
    setAt(child, rest, path, untrusted);
    target[key] = child;
    return;
  }
  if (untrusted) {
    if (path === undefined) delete target[key];
    else target[key] = path;
  } else if (target[key] === undefined && path !== undefined) target[key] = path;
}
