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
  pin_option_to_host_tool: (guard, pins, base, options) => {
    const tool = pins?.tools?.[guard.tool];
    // Without the tool the server would choose one itself, possibly the workspace's.
    if (!tool) return { ok: false, message: guard.refusal };
    let pinned: Options = options;
    for (const dropped of guard.drop) pinned = withoutPath(pinned, dropped.split('.'));
    return { ok: true, params: { ...base, initializationOptions: withPath(pinned, guard.option.split('.'), tool) } };
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
  pin_setting_to_host_tool: (guard, pins, config) => pinSetting(config ?? {}, guard.setting.split('.'), pins?.tools?.[guard.tool]),
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
  return applyInitializeGuard(rule.initialize, trust.pins, params);
}

/** One `initialize` guard, as a descriptor states it, applied to the browser's params. */
export function applyInitializeGuard(guard: InitializeGuard, pins: TrustedToolPins | undefined, params: unknown): GuardedInitialize {
  const base = isRecord(params) ? params : {};
  const options = isRecord(base.initializationOptions) ? { ...base.initializationOptions } : {};
  return (INITIALIZE_GUARDS[guard.kind] as InitializeGuardOf<InitializeGuard['kind']>)(guard, pins, base, options, params);
}

/**
 * The language config (keyed by configuration section) the server is told, under this lease's
 * trust: what `workspace/configuration` answers and `didChangeConfiguration` pushes are made from.
 */
export function guardConfig(trust: LeaseTrust, config: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (trust.trusted) return config;
  const rule = languageDescriptor(trust.language).untrusted;
  if (rule.kind === 'nothing_runs') return config;
  return applyConfigurationGuard(rule.configuration, trust.pins, config);
}

/** One configuration guard, as a descriptor states it, applied to the user's language config. */
export function applyConfigurationGuard(guard: ConfigurationGuard, pins: TrustedToolPins | undefined, config: Config): Config {
  return (CONFIGURATION_GUARDS[guard.kind] as ConfigurationGuardOf<ConfigurationGuard['kind']>)(guard, pins, config);
}

/**
 * `config` with the setting at `path` (section, then keys) set to `value`, or removed when it is
 * undefined, however it is spelled: nested (`{python: {pythonPath}}`) or under a dotted key at any
 * level (`{'python.pythonPath': ...}`, as a client may answer a section asked by its full name).
 * Every other spelling is removed, so the server cannot be told another value for it.
 */
export function pinSetting(config: Options, path: readonly string[], value: string | undefined): Options {
  const out: Options = { ...config };
  const [head, ...rest] = path;
  if (head === undefined) return out;
  // Dotted spellings (`a.b` holding `{c}`, `a.b.c` holding the value): stripped of the setting.
  for (let i = 2; i <= path.length; i++) {
    const key = path.slice(0, i).join('.');
    if (!(key in out)) continue;
    const remainder = path.slice(i);
    if (remainder.length === 0) delete out[key];
    else if (isRecord(out[key])) out[key] = pinSetting(out[key], remainder, undefined);
  }
  if (rest.length === 0) {
    if (value === undefined) delete out[head];
    else out[head] = value;
    return out;
  }
  out[head] = pinSetting(isRecord(out[head]) ? out[head] : {}, rest, value);
  return out;
}

/** `options` with `value` at the dotted `path`, objects on the way copied (a non-object replaced). */
function withPath(options: Options, path: readonly string[], value: unknown): Options {
  const [head, ...rest] = path;
  if (head === undefined) return options;
  const current = options[head];
  return { ...options, [head]: rest.length === 0 ? value : withPath(isRecord(current) ? current : {}, rest, value) };
}

/** `options` without the member at `path`; objects on the way copied, never changed. */
function withoutPath(options: Options, path: readonly string[]): Options {
  const [head, ...rest] = path;
  if (head === undefined || !(head in options)) return options;
  const out: Options = { ...options };
  const current = out[head];
  if (rest.length === 0) delete out[head];
  else if (isRecord(current)) out[head] = withoutPath(current, rest);
  return out;
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
