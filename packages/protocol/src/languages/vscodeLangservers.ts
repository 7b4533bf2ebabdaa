import { ALL_PLATFORMS, type InstallRecipe, type ServerRule, type UntrustedWorkspaceRule } from './descriptor.js';

/**
 * One npm package ships the VS Code JSON, CSS and HTML servers: the three share its folder, so it
 * is installed once and found by all three. Version 4 declares no engine limit below Node 20.
 */
export function vscodeLangserversRecipe(bin: string): InstallRecipe {
  return { kind: 'npm', packages: ['vscode-langservers-extracted@4'], bin, dir: 'vscode-langservers', platforms: ALL_PLATFORMS };
}

/** The VS Code CSS server reads these sections and fails on a null answer (it expects VS Code's defaults). */
export const CSS_SECTION = { validate: true, lint: {} };

/** Nothing of the workspace runs: the VS Code servers parse files and run no program. */
export const VSCODE_SERVER_RUNS_NOTHING = 'the VS Code language servers parse the files they are given and run no program';

/**
 * What the JSON, CSS and HTML descriptors share: the server (started with --stdio; it never asks
 * for its settings, so they are pushed), the one package, and a rule that nothing of the workspace runs.
 */
export function vscodeLanguageServer(binary: string): { server: ServerRule; install: InstallRecipe; untrusted: UntrustedWorkspaceRule } {
  return {
    server: { binary, args: ['--stdio'], configuration: 'push' },
    install: vscodeLangserversRecipe(binary),
    untrusted: { kind: 'nothing_runs', because: VSCODE_SERVER_RUNS_NOTHING },
  };
}
