/**
 * What Kandev knows about one language, in one place (docs/adding-a-language.md). Every field is
 * required: a rule that does not apply is said explicitly (`nothing_runs` with its reason, an empty
 * list, `never` with the guidance shown), so a forgotten rule is a type error rather than a silent
 * fallback. Data and pure functions only: the web imports this package too.
 *
 * agentctl, the backend and the web iterate the descriptors; each app implements every *kind* a
 * field can name (install recipes, trust guards, host tool probes) once, keyed by that kind.
 */
import type { ServerFeature } from './serverFeatures.js';

/** Task-host operating systems as Node names them (`process.platform`). */
export type HostPlatform = 'linux' | 'darwin' | 'win32';

export type JsonObject = Readonly<Record<string, unknown>>;

/** A file as the language table sees it: lower-case extension with its dot (or '') and base name. */
export interface FileFacts {
  extension: string;
  /** The base name, lower case. */
  baseName: string;
}

export interface LanguageFilesRule {
  /** File extensions, lower case, with the dot. */
  extensions: readonly string[];
  /** Well-known base names (compared without case) that belong here whatever their extension says. */
  fileNames: readonly string[];
  /** Base-name prefixes, lower case (`dockerfile.` for `Dockerfile.dev`). */
  fileNamePrefixes: readonly string[];
  /**
   * The LSP `languageId` of a document (it differs per file within one server: a .tsx file is
   * `typescriptreact`, a tsconfig.json `jsonc`, a .scss file `scss`).
   */
  documentLanguageId(file: FileFacts): string;
}

export interface MonacoRule {
  /** Monaco language ids of this language's models; its providers register for these. */
  languageIds: readonly string[];
  /** Document languageIds whose Monaco model language is spelled differently (`shellscript` -> `shell`). */
  modelLanguageOfDocument: Readonly<Record<string, string>>;
  /**
   * Monaco ships its own language service for these models, which an active server's features
   * replace. When false, a language service Monaco still loads for these models (its tokenizer,
   * see `language_service`) keeps its tokens only.
   */
  builtinLanguageService: boolean;
  /** How each of `languageIds` is coloured: one entry per id. */
  tokenizers: Readonly<Record<string, MonacoTokenizer>>;
}

/**
 * Where a Monaco language's tokens come from. The web loads each lazily, when the first model of
 * that language is tokenized, so opening a TypeScript file never fetches another grammar.
 */
export type MonacoTokenizer =
  /** Monaco's own Monarch grammar, `monaco-editor/esm/vs/basic-languages/<module>/<module>.js`. */
  | { kind: 'monarch'; module: string }
  /** Monaco's language service for this id tokenizes its models itself (JSON). */
  | { kind: 'language_service' }
  /**
   * A TextMate grammar of the `tm-grammars` collection (`grammars/<grammar>.json`), for languages
   * Monaco has no grammar for. `embedded` names the collection's grammars loaded with it (the
   * script and style blocks of a component file); an embedded scope not listed stays uncoloured.
   */
  | { kind: 'textmate'; grammar: string; embedded: readonly string[] };

export interface ServerRule {
  /** The launcher's name, looked up on the task PATH and in the install's own folders. */
  binary: string;
  args: readonly string[];
  /**
   * `push`: the server never asks with `workspace/configuration` and takes its settings from
   * `didChangeConfiguration` (sent once after `initialized`). `pull`: it asks.
   */
  configuration: 'push' | 'pull';
  /**
   * Absent: the client declares pull diagnostics (`textDocument.diagnostic`) with dynamic
   * registration, as to every server. `static_only`: without it. A server that chooses its
   * diagnostics model from that flag (tombi pulls only when dynamic registration is declared)
   * then publishes its findings instead; `because` says why that serves the person better.
   */
  pullDiagnosticsRegistration?: { kind: 'static_only'; because: string };
}

/** How a language's server gets onto a task host. */
export type InstallRecipe =
  | {
      kind: 'npm';
      /** Pinned to versions that run on Node 20 (`npm view <pkg>@<ver> engines`). */
      packages: readonly string[];
      /** The launcher in node_modules/.bin. */
      bin: string;
      /** Folder under the managed root; servers of one package share it and install once. */
      dir: string;
      platforms: readonly HostPlatform[];
    }
  | {
      kind: 'go';
      /** `go install` argument, with its version. */
      module: string;
      platforms: readonly HostPlatform[];
    }
  | {
      /** A release build downloaded, checksum-verified and unpacked into the managed root. */
      kind: 'release';
      dir: string;
      /** Holds `<binary>-<target triple>.gz` and its `.sha256`. */
      baseUrl: string;
      /** A task env variable that names a mirror of `baseUrl`. */
      baseUrlEnv: string;
      /** The by-hand install shown on the settings card. */
      manualCommand: string;
      platforms: readonly HostPlatform[];
      /** Installer detail (English) on a host outside `platforms`. */
      otherPlatformGuidance: string;
    }
  | {
      /** Kandev never installs this server; the person does, as the guidance says. */
      kind: 'never';
      /** The one-line by-hand install shown on the settings card, when there is one. */
      manualCommand: string | null;
      /** Installer detail (English) sent with close 4007. */
      guidance: string;
      /** The browser's localized copy for the 4007 close (`lsp:close.<key>`) and its guidance (`lsp:guidance.<key>`). */
      closeKey: string;
      guidanceKey: string;
    };

export type InstallKind = InstallRecipe['kind'];

/**
 * The settings card's `installStrategy` (GET /api/languages) for each kind of recipe: the wire has
 * always said `none` for a server Kandev never installs.
 */
export const INSTALL_STRATEGY_OF_KIND = { npm: 'npm', go: 'go', release: 'release', never: 'none' } as const satisfies Record<InstallKind, string>;

export type InstallStrategy = (typeof INSTALL_STRATEGY_OF_KIND)[InstallKind];

export function isInstallStrategy(value: unknown): value is InstallStrategy {
  return typeof value === 'string' && (Object.values(INSTALL_STRATEGY_OF_KIND) as readonly string[]).includes(value);
}

/** What Kandev tells a server before anything the user configured. */
export interface ServerSettingsRule {
  /** `initializationOptions` merged under the client's own. */
  initializationOptions: JsonObject;
  /** Answers to `workspace/configuration`, by section, under the user's JSON. */
  settings: JsonObject;
  /** Settings the editor's inlay-hints switch turns on (some servers compute no hints without them). */
  inlayHintSettings: JsonObject;
  /**
   * Code lenses: whether the editor's switch starts on (VS Code shows every server's lenses but
   * TypeScript's reference and implementation counts; absent means on), and settings it turns on.
   */
  codeLens?: { byDefault: boolean; settings: JsonObject };
  /**
   * `initializationOptions` entries that only the task host can fill: a dotted key
   * (`typescript.tsdk`) and the path agentctl puts there as it starts the server, found from the
   * launcher's own install, never from the workspace. Trusted, a value the client already sent
   * stays; untrusted, the found path wins, and without one the entry is removed (it could name the
   * workspace's copy). Absent: none.
   */
  launcherPaths?: Readonly<Record<string, LauncherPath>>;
}

/** A task-host path agentctl resolves from the launched server's real location (`launcherPaths`). */
export type LauncherPath =
  /** The `lib` folder of the TypeScript the launcher's package resolves: the one installed with it. */
  'typescript_lib_next_to_launcher';

/**
 * Settings that keep a server off the network (a task host may have no route out, and a download
 * per opened file would leak which files a person opens). Merged over `ServerSettingsRule`; the
 * user's JSON still wins.
 */
export type NetworkOffRule =
  { kind: 'settings'; initializationOptions: JsonObject; settings: JsonObject; because: string } | { kind: 'no_setting'; because: string };

/**
 * A host tool a guard pins a server to: an id of the rule's own choosing (`tsserver`, `python`),
 * under which agentctl reports the path its probe found (`ready.trustedTools.tools`).
 */
export type HostToolId = string;

/** What the broker does to `initialize` of an untrusted lease. */
export type InitializeGuard =
  | { kind: 'unchanged'; because: string }
  /**
   * `option` (a dotted path into `initializationOptions`) is the path of host tool `tool`, whatever
   * the browser sent; `drop` (dotted paths) are removed, as options that name code to load or run.
   * Without the tool (agentctl found none outside the workspace) `initialize` is refused with
   * `refusal`, since the server would otherwise pick one itself, possibly the workspace's.
   */
  | { kind: 'pin_option_to_host_tool'; option: string; tool: HostToolId; drop: readonly string[]; refusal: string }
  /** These options win at every leaf. */
  | { kind: 'force_options'; options: JsonObject }
  /**
   * Refuse to start when agentctl found, in the workspace, files the server would load and so run
   * (a Gradle build it imports, a `prisma.config.ts` it evaluates): `buildFiles` are their base
   * names (or `folder/name`), which agentctl looks for in the workspace root and two levels below.
   */
  | { kind: 'refuse_when_build_files'; buildFiles: readonly string[]; refusal: string }
  /**
   * Refuse to start: the server loads code of the workspace in ways no option of it turns off
   * (packages it resolves from the workspace's node_modules at any depth, configs it imports).
   */
  | { kind: 'refuse'; refusal: string };

/** What the broker does to the configuration an untrusted lease's server is told. */
export type ConfigurationGuard =
  | { kind: 'unchanged'; because: string }
  /**
   * `setting` (a dotted path: section, then keys) is the path of host tool `tool`, however the
   * user's settings spell it (nested or with a dotted key), or removed when agentctl found none.
   */
  | { kind: 'pin_setting_to_host_tool'; setting: string; tool: HostToolId }
  /** These values win at every leaf of `section`. */
  | { kind: 'force_section'; section: string; values: JsonObject };

/** Environment variables of an untrusted server, beyond PATH losing its workspace entries (always). */
export interface EnvironmentGuard {
  set: Readonly<Record<string, string>>;
  /** Variable -> program: the variable is pinned to that program as found on the guarded PATH. */
  pinFromGuardedPath: Readonly<Record<string, string>>;
}

/**
 * How agentctl finds a host tool outside the workspace, reported in the ready frame under `tool`.
 * A path that resolves inside the workspace is never reported.
 */
export type HostToolProbe =
  /**
   * `file` of npm package `package`, as the launched server resolves that package from its own
   * real location (the way Node does): the copy it ships with, not a workspace's.
   */
  | { kind: 'package_file_next_to_launcher'; tool: HostToolId; package: string; file: string }
  /** The first of `candidates` (program names, in order) found on the guarded task PATH. */
  | { kind: 'program_on_guarded_path'; tool: HostToolId; candidates: readonly string[] };

/** The untrusted-workspace rule (docs/workspace-trust.md). */
export type UntrustedWorkspaceRule =
  | {
      /** Nothing of the workspace is run by this server, because ... (PATH is still guarded). */
      kind: 'nothing_runs';
      because: string;
    }
  | {
      kind: 'guarded';
      /** The trust dialog's line for this language (`trust:<key>`). */
      dialogKey: string;
      initialize: InitializeGuard;
      configuration: ConfigurationGuard;
      environment: EnvironmentGuard;
      /**
       * The host tools the guards above pin to, each found by its probe (`[]` when none is). The
       * files of a `refuse_when_build_files` guard are looked for without a probe.
       */
      hostTools: readonly HostToolProbe[];
    };

/** lucide glyphs the file tree draws (the web maps each to its component). */
export type FileGlyph = 'code' | 'braces' | 'terminal' | 'cog';

export interface FileIconRule {
  glyph: FileGlyph;
  /** A `--icon-*` token of the web's theme. */
  tone: string;
  /** Extensions (without the dot) whose tone differs from `tone` (`.js` within TypeScript). */
  extensionTones: Readonly<Record<string, string>>;
  /** Base names (lower case) drawn with another glyph and tone (`package.json` as configuration). */
  fileNames: Readonly<Record<string, { glyph: FileGlyph; tone: string }>>;
}

/** The settings card (GET /api/languages): English, as the backend sends it. */
export interface CatalogCardRule {
  name: string;
  prerequisites: readonly string[];
  experimental: boolean;
}

/** Keys of the web's locale catalogs (namespace `lsp`). */
export interface LanguageCopyRule {
  /** The language's name on status surfaces and settings cards. */
  name: string;
  /** Shown when `initialize` has waited a minute. */
  longInitializeNotice: string;
}

/**
 * What the language's server offers to this client (its initialize result and the capabilities it
 * registers), as docs/languages.md's capability table measured it from the real server
 * (`scripts/capability-table.ts`); test/integration/capability-table.test.ts measures again and
 * holds each claim to the server.
 */
export type OfferedFeaturesRule =
  | { kind: 'measured'; features: readonly ServerFeature[] }
  /** The server cannot run where the table is measured, so nothing is claimed. */
  | { kind: 'not_measured'; because: string };

export interface LanguageDescriptor<Id extends string = string> {
  /** Part of the wire contract: the `language` of sockets, frames and settings. */
  id: Id;
  files: LanguageFilesRule;
  monaco: MonacoRule;
  server: ServerRule;
  offers: OfferedFeaturesRule;
  install: InstallRecipe;
  serverSettings: ServerSettingsRule;
  networkOff: NetworkOffRule;
  untrusted: UntrustedWorkspaceRule;
  /** Started when a file opens unless the person changed the default. */
  autoStartByDefault: boolean;
  catalog: CatalogCardRule;
  copy: LanguageCopyRule;
  icon: FileIconRule;
}

/** Keeps the literal id in the type, so the index can derive `LanguageId` from its list. */
export function defineLanguage<const Id extends string>(descriptor: LanguageDescriptor<Id>): LanguageDescriptor<Id> {
  return descriptor;
}

export const ALL_PLATFORMS: readonly HostPlatform[] = ['linux', 'darwin', 'win32'];

export const NODE_PREREQUISITE = 'Node.js 20 or newer and npm on the task PATH';

/** Nothing: the empty settings object of a rule that sends none. */
export const NONE: JsonObject = Object.freeze({});

/** A server Kandev tells nothing of its own (the user's JSON still reaches it). */
export const NO_SERVER_SETTINGS: ServerSettingsRule = { initializationOptions: NONE, settings: NONE, inlayHintSettings: NONE };

/** No variable beyond the PATH guard every untrusted server gets. */
export const PATH_GUARD_ONLY: EnvironmentGuard = { set: {}, pinFromGuardedPath: {} };

/** A configuration file's icon (a cog in the configuration tone). */
export const CONFIG_ICON = { glyph: 'cog', tone: 'config' } as const;
