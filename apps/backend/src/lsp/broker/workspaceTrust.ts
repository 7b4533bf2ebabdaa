/**
 * Workspace trust in the broker (docs/workspace-trust.md). A lease is started trusted or not, from
 * its task's "Trust this workspace's tools" switch, and keeps that for its life. While untrusted
 * the broker, which owns `initialize` and every `workspace/configuration` answer, applies the
 * untrusted-workspace rule of the lease's language descriptor: which guard of `initialize` and of
 * the configuration, each implemented here once per kind (a kind without an implementation does
 * not compile). A language whose rule is `nothing_runs` passes through unchanged, as its rule says.
 *
 * agentctl adds the environment guards (PATH without workspace entries, the rule's variables).
 * Trusted leases pass everything through unchanged, as before trust existed.
 */
import { isRecord, languageDescriptor } from '@kandev/protocol';
import type { ConfigurationGuard, InitializeGuard, LanguageId, TrustedToolPins } from '@kandev/protocol';

export interface LeaseTrust {
  language: LanguageId;
  trusted: boolean;
  /** What agentctl found outside the workspace for this server (ready frame). */
  pins: TrustedToolPins | undefined;
}

export type GuardedInitialize = { ok: true; params: unknown } | { ok: false; message: string };

type Options = Record<string, unknown>;
type InitializeGuardOf<K extends InitializeGuard['kind']> = (
  guard: Extract<InitializeGuard, { kind: K }>,
  pins: TrustedToolPins | undefined,
  base: Options,
  options: Options,
  params: unknown,
) => GuardedInitialize;

const INITIALIZE_GUARDS: { [K in InitializeGuard['kind']]: InitializeGuardOf<K> } = {
  unchanged: (_guard, _pins, _base, _options, params) => ({ ok: true, params }),
  pin_tsserver: (guard, pins, base, options) => {
    const tsserverPath = pins?.tsserverPath;
    // Without a valid tsserver.path, typescript-language-server prefers the workspace's TypeScript.
    if (!tsserverPath) return { ok: false, message: guard.refusal };
    const tsserver = isRecord(options.tsserver) ? { ...options.tsserver } : {};
    delete tsserver.fallbackPath;
    const pinned: Options = { ...options, tsserver: { ...tsserver, path: tsserverPath } };
    // Both name code to load or run: tsserver plugins and the npm of the typings installer.
    delete pinned.plugins;
    delete pinned.npmLocation;
    return { ok: true, params: { ...base, initializationOptions: pinned } };
  },
  force_options: (guard, _pins, base, options) => ({ ok: true, params: { ...base, initializationOptions: deepMerge(options, guard.options) } }),
  // Without build files there is nothing to import, so nothing of the repository's to run.
  refuse_when_build_files: (guard, pins, _base, _options, params) =>
    (pins?.buildFiles?.length ?? 0) > 0 ? { ok: false, message: guard.refusal } : { ok: true, params },
  // The server loads the workspace's code in ways none of its options turns off: it never starts untrusted.
  refuse: (guard) => ({ ok: false, message: guard.refusal }),
};

type Config = Record<string, unknown> | undefined;
type ConfigurationGuardOf<K extends ConfigurationGuard['kind']> = (
  guard: Extract<ConfigurationGuard, { kind: K }>,
  pins: TrustedToolPins | undefined,
  config: Config,
) => Config;

const CONFIGURATION_GUARDS: { [K in ConfigurationGuard['kind']]: ConfigurationGuardOf<K> } = {
  unchanged: (_guard, _pins, config) => config,
  pin_python_path: (_guard, pins, config) => {
    const python = isRecord(config?.python) ? { ...config.python } : {};
    if (pins?.pythonPath) python.pythonPath = pins.pythonPath;
    else delete python.pythonPath;
    const guarded: Record<string, unknown> = { ...config, python };
    delete guarded['python.pythonPath'];
    return guarded;
  },
  force_section: (guard, _pins, config) => {
    const current = isRecord(config?.[guard.section]) ? (config[guard.section] as Options) : {};
    return { ...config, [guard.section]: deepMerge(current, guard.values) };
  },
};

/** The `initialize` params the server may see under this lease's trust. */
export function guardInitialize(trust: LeaseTrust, params: unknown): GuardedInitialize {
  if (trust.trusted) return { ok: true, params };
  const rule = languageDescriptor(trust.language).untrusted;
  if (rule.kind === 'nothing_runs') return { ok: true, params };
  const base = isRecord(params) ? params : {};
  const options = isRecord(base.initializationOptions) ? { ...base.initializationOptions } : {};
  const guard = INITIALIZE_GUARDS[rule.initialize.kind] as InitializeGuardOf<InitializeGuard['kind']>;
  return guard(rule.initialize, trust.pins, base, options, params);
}

/**
 * The language config (keyed by configuration section) the server is told, under this lease's
 * trust: what `workspace/configuration` answers and `didChangeConfiguration` pushes are made from.
 */
export function guardConfig(trust: LeaseTrust, config: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (trust.trusted) return config;
  const rule = languageDescriptor(trust.language).untrusted;
  if (rule.kind === 'nothing_runs') return config;
  const guard = CONFIGURATION_GUARDS[rule.configuration.kind] as ConfigurationGuardOf<ConfigurationGuard['kind']>;
  return guard(rule.configuration, trust.pins, config);
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
