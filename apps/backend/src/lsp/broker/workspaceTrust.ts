/**
 * Workspace trust in the broker (docs/workspace-trust.md). A lease is started trusted or not, from
 * its task's "Trust this workspace's tools" switch, and keeps that for its life. While untrusted
 * the broker, which owns `initialize` and every `workspace/configuration` answer, overrides what
 * would let the repository choose code to run:
 *
 * | language   | initialize                                                        | configuration            |
 * | ---------- | ----------------------------------------------------------------- | ------------------------ |
 * | typescript | `tsserver.path` = the task host's TypeScript (refused if unknown); | -                        |
 * |            | no `tsserver.fallbackPath`, `plugins`, `npmLocation`               |                          |
 * | python     | -                                                                 | `python.pythonPath` = the task host's python, or none |
 * | go         | -  (agentctl sets GOTOOLCHAIN=local in gopls's environment)       | -                        |
 * | rust       | build scripts, proc macros and check-on-save off                  | the same, forced          |
 * | kotlin     | refused when agentctl found Gradle/Maven build files: importing them runs the repository's build scripts |
 *
 * agentctl adds the environment guards (PATH without workspace entries, GOTOOLCHAIN=local).
 * Trusted leases pass everything through unchanged, as before trust existed.
 */
import { isRecord } from '@kandev/protocol';
import type { LanguageId, TrustedToolPins } from '@kandev/protocol';

export interface LeaseTrust {
  language: LanguageId;
  trusted: boolean;
  /** What agentctl found outside the workspace for this server (ready frame). */
  pins: TrustedToolPins | undefined;
}

export type GuardedInitialize = { ok: true; params: unknown } | { ok: false; message: string };

/** Settings that keep rust-analyzer from building or running anything of the repository's. */
export const RUST_ANALYZER_UNTRUSTED: Readonly<Record<string, unknown>> = {
  cargo: { buildScripts: { enable: false, overrideCommand: null } },
  procMacro: { enable: false },
  checkOnSave: false,
  check: { overrideCommand: null },
};

export const UNTRUSTED_REFUSALS = {
  typescriptUnpinned:
    'workspace tools are not trusted and this task host has no TypeScript next to typescript-language-server; ' +
    "trust this workspace's tools or install typescript-language-server with its TypeScript",
  kotlin: "kotlin-lsp imports the Gradle or Maven build, which runs the repository's build scripts: trust this workspace's tools to use it",
} as const;

/** The `initialize` params the server may see under this lease's trust. */
export function guardInitialize(trust: LeaseTrust, params: unknown): GuardedInitialize {
  if (trust.trusted) return { ok: true, params };
  const base = isRecord(params) ? params : {};
  const options = isRecord(base.initializationOptions) ? { ...base.initializationOptions } : {};
  switch (trust.language) {
    case 'typescript': {
      const tsserverPath = trust.pins?.tsserverPath;
      // Without a valid tsserver.path, typescript-language-server prefers the workspace's TypeScript.
      if (!tsserverPath) return { ok: false, message: UNTRUSTED_REFUSALS.typescriptUnpinned };
      const tsserver = isRecord(options.tsserver) ? { ...options.tsserver } : {};
      delete tsserver.fallbackPath;
      options.tsserver = { ...tsserver, path: tsserverPath };
      // Both name code to load or run: tsserver plugins and the npm of the typings installer.
      delete options.plugins;
      delete options.npmLocation;
      return { ok: true, params: { ...base, initializationOptions: options } };
    }
    case 'rust':
      return { ok: true, params: { ...base, initializationOptions: deepMerge(options, RUST_ANALYZER_UNTRUSTED) } };
    case 'kotlin':
      // Without build files there is nothing to import, so nothing of the repository's to run.
      return (trust.pins?.buildFiles?.length ?? 0) > 0 ? { ok: false, message: UNTRUSTED_REFUSALS.kotlin } : { ok: true, params };
    default:
      return { ok: true, params };
  }
}

/**
 * The language config (keyed by configuration section) the server is told, under this lease's
 * trust: what `workspace/configuration` answers and `didChangeConfiguration` pushes are made from.
 */
export function guardConfig(trust: LeaseTrust, config: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (trust.trusted) return config;
  switch (trust.language) {
    case 'python': {
      const python = isRecord(config?.python) ? { ...config.python } : {};
      if (trust.pins?.pythonPath) python.pythonPath = trust.pins.pythonPath;
      else delete python.pythonPath;
      const guarded: Record<string, unknown> = { ...config, python };
      delete guarded['python.pythonPath'];
      return guarded;
    }
    case 'rust': {
      const current = isRecord(config?.['rust-analyzer']) ? config['rust-analyzer'] : {};
      return { ...config, 'rust-analyzer': deepMerge(current, RUST_ANALYZER_UNTRUSTED) };
    }
    default:
      return config;
  }
}

/** `forced` wins at every leaf; objects merge. Neither input is changed. */
export function deepMerge(base: Record<string, unknown>, forced: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(forced)) {
    const current = out[key];
    out[key] = isRecord(value) && isRecord(current) ? deepMerge(current, value) : isRecord(value) ? deepMerge({}, value) : value;
  }
  return out;
}
