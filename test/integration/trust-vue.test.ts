import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { putSettings } from '../support/page.js';
import { startStack, type RunningStack } from '../support/stack.js';
import { diagnosticsOf, hostileWorkspace, openFile, setTrust, type HostileWorkspace } from './trust-support.js';

/**
 * Workspace trust, Vue (docs/workspace-trust.md): the real vue-language-server (installed by
 * agentctl into the task HOME, auto-install on) requires the modules a tsconfig's
 * `vueCompilerOptions.plugins` names: repository code. The hostile repository plants such a plugin
 * (it records that it ran) and its own `node_modules/typescript` (which records that it was loaded,
 * as it would be if the server took the workspace's TypeScript). Untrusted, the broker refuses
 * `initialize` because agentctl found the tsconfig; in a folder without one, the component is
 * checked with the TypeScript installed beside the server though the browser named the
 * workspace's; trusted, the plugin runs.
 */
const component = [
  '<script setup lang="ts">',
  'const count: number = 1',
  'const label: string = count',
  '</script>',
  '',
  '<template><p>demo</p></template>',
  '',
].join('\n');
const hostileTypescript = "require('node:fs').appendFileSync('@MARKER@', 'workspace typescript loaded\\n');\nthrow new Error('not TypeScript');\n";
const plugin = "require('node:fs').appendFileSync('@MARKER@', 'vue plugin ran\\n');\nmodule.exports = () => ({});\n";
const tsconfig = JSON.stringify({ compilerOptions: { strict: true }, vueCompilerOptions: { plugins: ['./plugin.cjs'] } });
/** A repository whose tsconfig names a plugin, and its own TypeScript: both record that they ran. */
const withPlugin = () =>
  hostileWorkspace('vue', {
    'Counter.vue': component,
    'tsconfig.json': tsconfig,
    'plugin.cjs': plugin,
    'node_modules/typescript/package.json': JSON.stringify({ name: 'typescript', version: '5.9.9', main: 'lib/typescript.js' }),
    'node_modules/typescript/lib/typescript.js': hostileTypescript,
    'node_modules/typescript/lib/tsserverlibrary.js': hostileTypescript,
  });
const source = { path: 'Counter.vue', languageId: 'vue', text: component };
const finding = "Type 'number' is not assignable to type 'string'.";
/** What a browser (or a person's JSON) might send: the workspace's own TypeScript. */
const workspaceTypescript = (ws: HostileWorkspace) => ({ typescript: { tsdk: join(ws.dir, 'node_modules/typescript/lib') } });

let stack: RunningStack;
let home: string;
let npmCache: string;

/** A session on its own task over `ws`, trusted or not. */
async function sessionOn(ws: HostileWorkspace, trusted: boolean): Promise<string> {
  const task = await stack.createTask({ title: 'hostile vue', workspace: ws.dir, env: { HOME: home, npm_config_cache: npmCache } });
  if (trusted) await setTrust(stack, task.id, true);
  return (await stack.startSession(task.id)).id;
}

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'kandev-trust-vue-home-'));
  stack = await startStack({ KANDEV_LOG_STDERR: '0' });
  await putSettings(stack, { lsp_auto_install_languages: ['vue'] });
  // npm's download cache is shared to spare the registry; the server lands in the task HOME.
  npmCache = execFileSync('npm', ['config', 'get', 'cache'], { encoding: 'utf8' }).trim();
}, 60_000);

afterAll(async () => {
  await stack?.stop();
  rmSync(home, { recursive: true, force: true });
});

describe('workspace trust: Vue', () => {
  it('untrusted: agentctl finds the tsconfig, initialize is refused with the reason, and nothing of the repository runs', async () => {
    const ws = withPlugin();
    const { client, init } = await openFile(stack, await sessionOn(ws, false), 'vue', source, workspaceTypescript(ws));
    expect(init.error?.message).toMatch(/loads the plugins the repository's tsconfig\.json or jsconfig\.json names/);
    expect(ws.runs()).toEqual([]);
    await client.leave();
  }, 400_000);

  it("untrusted, no tsconfig: checked with the server's own TypeScript, never the workspace's that the browser named", async () => {
    const ws = withPlugin();
    rmSync(join(ws.dir, 'tsconfig.json'));
    const { client, uri, init } = await openFile(stack, await sessionOn(ws, false), 'vue', source, workspaceTypescript(ws));
    expect(init.result.capabilities.hoverProvider).toBeTruthy();
    const diagnostics = await diagnosticsOf(client, uri);
    expect(JSON.stringify(diagnostics.params.diagnostics)).toContain(finding);
    expect(ws.runs()).toEqual([]);
    await client.leave();
  }, 200_000);

  it('trusted: the real server requires the plugin the tsconfig names (the marker proves the refusal test can fail)', async () => {
    const ws = withPlugin();
    rmSync(join(ws.dir, 'node_modules'), { recursive: true });
    const { client, uri } = await openFile(stack, await sessionOn(ws, true), 'vue', source);
    const diagnostics = await diagnosticsOf(client, uri);
    expect(JSON.stringify(diagnostics.params.diagnostics)).toContain(finding);
    expect(ws.runs()).toContain('vue plugin ran');
    await client.leave();
  }, 200_000);
});
