import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_SETTINGS, LANGUAGE_IDS } from '@kandev/protocol';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig, type BackendConfig } from '../config.js';
import { startBackend, type RunningBackend } from '../server.js';

const root = mkdtempSync(join(tmpdir(), 'kandev-api-'));
const repo = join(root, 'repo');
mkdirSync(repo);
afterAll(() => rmSync(root, { recursive: true, force: true }));
// Every backend here runs with this fixed access token; `call` sends it (access tests live in test/integration/access-*).
const TOKEN = 'api-unit-test-token-0123456789';
const auth = { authorization: `Bearer ${TOKEN}` };

function config(overrides: Record<string, string> = {}): BackendConfig {
  const loaded = loadConfig({
    KANDEV_HOME: join(root, 'home'),
    KANDEV_PORT: '0',
    KANDEV_LOG_STDERR: '0',
    KANDEV_WEB_DIR: join(root, 'web'),
    KANDEV_TOKEN: TOKEN,
    ...overrides,
  });
  if (!loaded.ok) throw new Error(loaded.error);
  return loaded.value;
}

let backend: RunningBackend;
beforeAll(async () => {
  backend = await startBackend(config());
});
afterAll(() => backend.close());

async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${backend.url}${path}`, {
    method,
    headers: body === undefined ? { ...auth, ...headers } : { 'content-type': 'application/json', ...auth, ...headers },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a test reads whatever JSON the API sent
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, json, text, headers: response.headers };
}

describe('HTTP API basics', () => {
  it('answers health and the language catalog for the Editors settings cards (S05 data)', async () => {
    expect(await call('GET', '/api/health')).toMatchObject({ status: 200, json: { ok: true } });
    const languages = await call('GET', '/api/languages');
    expect(languages.json.languages).toContainEqual(
      expect.objectContaining({
        id: 'python',
        extensions: ['.py', '.pyi'],
        installStrategy: 'npm',
        autoInstallable: true,
        installCommand: 'npm install --prefix ~/.kandev/lsp-servers/python pyright@1',
        managedDestination: '~/.kandev/lsp-servers/python/node_modules/.bin',
      }),
    );
    expect(languages.json.languages.find((l: { id: string }) => l.id === 'kotlin')).toMatchObject({
      autoInstallable: false,
      experimental: true,
      installStrategy: 'none',
    });
    expect(languages.json.languages.map((l: { id: string }) => l.id)).toEqual([...LANGUAGE_IDS]);
    expect(languages.json.languages.find((l: { id: string }) => l.id === 'dockerfile')).toMatchObject({
      fileNames: ['Dockerfile', 'Containerfile'],
      binary: 'docker-langserver',
    });
    expect(languages.json.languages.find((l: { id: string }) => l.id === 'cpp')).toMatchObject({
      autoInstallable: false,
      installStrategy: 'none',
      installCommand: 'apt-get install clangd',
    });
  });

  it('answers unknown API paths with a JSON 404 and wrong methods with 405', async () => {
    expect(await call('GET', '/api/nope')).toMatchObject({ status: 404, json: { error: { code: 'not_found' } } });
    const wrong = await call('DELETE', '/api/tasks');
    expect(wrong).toMatchObject({ status: 405, json: { error: { code: 'bad_request' } } });
    expect(wrong.headers.get('allow')).toBe('GET, POST');
  });

  it('refuses malformed and oversized bodies', async () => {
    expect(await call('POST', '/api/tasks', '{nope')).toMatchObject({ status: 400, json: { error: { code: 'bad_request' } } });
    expect(await call('PUT', '/api/settings', { locale: 'x'.repeat(2 * 1024 * 1024) })).toMatchObject({ status: 413, json: { error: { code: 'too_large' } } });
  });
});

describe('settings', () => {
  // Each test starts from the defaults, whatever an earlier one stored in the shared backend.
  beforeEach(async () => {
    expect((await call('PUT', '/api/settings', DEFAULT_SETTINGS)).status).toBe(200);
  });

  it('starts from the defaults, merges partial updates and keeps the other fields', async () => {
    expect((await call('GET', '/api/settings')).json).toEqual(DEFAULT_SETTINGS);
    const put = await call('PUT', '/api/settings', { locale: 'pt-pt', lsp_auto_install_languages: ['python'] });
    expect(put).toMatchObject({ status: 200, json: { ...DEFAULT_SETTINGS, locale: 'pt-pt', lsp_auto_install_languages: ['python'] } });
    const second = await call('PUT', '/api/settings', { lsp_server_configs: { go: { gopls: { staticcheck: true } } } });
    expect(second.json).toMatchObject({
      locale: 'pt-pt',
      lsp_auto_install_languages: ['python'],
      lsp_server_configs: { go: { gopls: { staticcheck: true } } },
    });
    expect((await call('GET', '/api/settings')).json).toEqual(second.json);
  });

  it('refuses an invalid update whole, naming the field, and stores nothing of it', async () => {
    const before = (await call('GET', '/api/settings')).json;
    const bad = await call('PUT', '/api/settings', { show_status_bar: false, lsp_auto_install_languages: ['kotlin'] });
    expect(bad).toMatchObject({ status: 400, json: { error: { code: 'bad_request' } } });
    expect(bad.json.error.message).toContain('lsp_auto_install_languages');
    expect(await call('PUT', '/api/settings', { typo_field: 1 })).toMatchObject({ status: 400 });
    expect((await call('GET', '/api/settings')).json).toEqual(before);
  });

  it('keeps settings across a backend restart', async () => {
    await call('PUT', '/api/settings', { lsp_status_location: 'status_bar' });
    const other = await startBackend(config({ KANDEV_HOME: join(root, 'home') }));
    try {
      const response = await fetch(`${other.url}/api/settings`, { headers: auth });
      expect(((await response.json()) as { lsp_status_location: string }).lsp_status_location).toBe('status_bar');
    } finally {
      await other.close();
    }
  });
});

describe('tasks and sessions without a task host', () => {
  it('creates, lists and reads a Local PC task', async () => {
    const created = await call('POST', '/api/tasks', { title: 'repo', executor: 'local_pc', repositories: [{ path: repo }] });
    expect(created).toMatchObject({ status: 201, json: { title: 'repo', executor: 'local_pc', repositories: [{ path: repo }], env: {} } });
    expect((await call('GET', '/api/tasks')).json.tasks.map((t: { id: string }) => t.id)).toContain(created.json.id);
    expect(await call('GET', `/api/tasks/${created.json.id}`)).toMatchObject({ status: 200, json: { id: created.json.id, sessions: [] } });
    expect(await call('GET', '/api/tasks/missing')).toMatchObject({ status: 404, json: { error: { code: 'not_found' } } });
  });

  it('refuses an unknown executor kind and a repository that is not a folder', async () => {
    expect(await call('POST', '/api/tasks', { title: 't', executor: 'k8s', repositories: [{ path: repo }] })).toMatchObject({ status: 400 });
    expect(await call('POST', '/api/tasks', { title: 't', executor: 'local_pc', repositories: [{ path: join(repo, 'missing') }] })).toMatchObject({
      status: 400,
    });
  });

  it('S26 records a failed session for a remote_docker task and routes nothing to it', async () => {
    const task = await call('POST', '/api/tasks', { title: 'remote', executor: 'remote_docker', repositories: [{ path: '/workspace' }] });
    const started = await call('POST', `/api/tasks/${task.json.id}/sessions`);
    expect(started).toMatchObject({ status: 422, json: { error: { code: 'executor_unsupported' }, session: { taskId: task.json.id, status: 'failed' } } });
    expect(await call('GET', `/api/sessions/${started.json.session.id}`)).toMatchObject({ status: 200, json: { status: 'failed' } });
    const files = await call('GET', `/api/sessions/${started.json.session.id}/files?path=`);
    expect(files).toMatchObject({ status: 409, json: { error: { code: 'session_not_running' } } });
  });

  it('names the field and reason of a refused task, so the browser can say what to fix', async () => {
    const refused = await call('POST', '/api/tasks', { title: 't', executor: 'local_pc', repositories: [{ path: 'relative/dir' }] });
    expect(refused).toMatchObject({
      status: 400,
      json: { error: { code: 'bad_request' }, invalid: { field: 'repositories', reason: 'path_not_absolute', index: 0 } },
    });
    expect(refused.json.error.invalid).toBeUndefined();
  });

  it('renames a task and refuses an empty title, keeping the old one', async () => {
    const created = await call('POST', '/api/tasks', { title: 'before', executor: 'local_pc', repositories: [{ path: repo }] });
    expect(await call('PATCH', `/api/tasks/${created.json.id}`, { title: ' after ' })).toMatchObject({
      status: 200,
      json: { id: created.json.id, title: 'after', sessions: [] },
    });
    expect(await call('PATCH', `/api/tasks/${created.json.id}`, { title: '' })).toMatchObject({
      status: 400,
      json: { invalid: { field: 'title', reason: 'title_empty' } },
    });
    expect((await call('GET', `/api/tasks/${created.json.id}`)).json.title).toBe('after');
    expect(await call('PATCH', '/api/tasks/missing', { title: 'x' })).toMatchObject({ status: 404 });
  });

  it('deletes a task with its session history, and 404s afterwards', async () => {
    const task = await call('POST', '/api/tasks', { title: 'doomed', executor: 'remote_docker', repositories: [{ path: '/workspace' }] });
    const failed = await call('POST', `/api/tasks/${task.json.id}/sessions`);
    expect(failed.status).toBe(422);
    expect(await call('DELETE', `/api/tasks/${task.json.id}`)).toMatchObject({ status: 200, json: { id: task.json.id, sessionsStopped: [] } });
    expect(await call('GET', `/api/tasks/${task.json.id}`)).toMatchObject({ status: 404 });
    expect(await call('GET', `/api/sessions/${failed.json.session.id}`)).toMatchObject({ status: 404 });
    expect((await call('GET', '/api/tasks')).json.tasks.map((t: { id: string }) => t.id)).not.toContain(task.json.id);
    expect(await call('DELETE', `/api/tasks/${task.json.id}`)).toMatchObject({ status: 404 });
  });

  it('lists each task with its sessions', async () => {
    const task = await call('POST', '/api/tasks', { title: 'listed', executor: 'remote_docker', repositories: [{ path: '/workspace' }] });
    const failed = await call('POST', `/api/tasks/${task.json.id}/sessions`);
    const listed = (await call('GET', '/api/tasks')).json.tasks.find((t: { id: string }) => t.id === task.json.id);
    expect(listed.sessions).toEqual([expect.objectContaining({ id: failed.json.session.id, status: 'failed' })]);
  });

  it('answers 404 for an unknown session, for reads, files and stop', async () => {
    expect(await call('GET', '/api/sessions/nope')).toMatchObject({ status: 404 });
    expect(await call('GET', '/api/sessions/nope/file?path=a.ts')).toMatchObject({ status: 404 });
    expect(await call('POST', '/api/sessions/nope/stop')).toMatchObject({ status: 404 });
  });

  it('refuses state changes from another site, and lets its own origin through', async () => {
    const before = (await call('GET', '/api/tasks')).json.tasks.length;
    const body = { title: 'csrf', executor: 'local_pc', repositories: [{ path: repo }] };
    expect(await call('POST', '/api/tasks', body, { origin: 'http://evil.example' })).toMatchObject({ status: 403, json: { error: { code: 'forbidden' } } });
    expect((await call('GET', '/api/tasks')).json.tasks.length).toBe(before);
    expect(await call('POST', '/api/tasks', body, { origin: backend.url })).toMatchObject({ status: 201 });
  });
});

describe('metrics', () => {
  it('exposes the session gauge and LSP counters in Prometheus text without ids', async () => {
    const metrics = await call('GET', '/metrics');
    expect(metrics.headers.get('content-type')).toMatch(/^text\/plain; version=0.0.4/);
    expect(metrics.text).toContain('# TYPE kandev_sessions_running gauge\nkandev_sessions_running 0');
    expect(metrics.text).toContain('# TYPE kandev_lsp_connections_opened_total counter');
    expect(metrics.text).toContain('# TYPE kandev_lsp_connections_closed_total counter');
  });

  it("exposes the backend process's own resources: its listening socket and the clock's timers", async () => {
    const metrics = await call('GET', '/metrics');
    // The server under test listens: Node reports that socket among the process's active resources.
    expect(Number(/^kandev_process_active_resources\{type="TCPServerWrap"\} (\d+)$/m.exec(metrics.text)?.[1])).toBeGreaterThanOrEqual(1);
    expect(metrics.text).toMatch(/^# TYPE kandev_process_clock_timers gauge\nkandev_process_clock_timers \d+$/m);
  });
});

describe('static web app', () => {
  const web = join(root, 'web');
  afterEach(() => rmSync(web, { recursive: true, force: true }));

  it('says to run the build when the web app is missing', async () => {
    const page = await call('GET', '/');
    expect(page.status).toBe(200);
    expect(page.text).toContain('npm run build');
  });

  it('serves files with their content types and falls back to index.html for client routes', async () => {
    mkdirSync(join(web, 'assets'), { recursive: true });
    writeFileSync(join(web, 'index.html'), '<!doctype html><div id="root"></div>');
    const files: Record<string, string> = {
      'assets/app.js': 'text/javascript; charset=utf-8',
      'assets/app.css': 'text/css; charset=utf-8',
      'assets/font.ttf': 'font/ttf',
      'assets/onig.wasm': 'application/wasm',
      'assets/en.json': 'application/json; charset=utf-8',
      'assets/logo.svg': 'image/svg+xml',
    };
    for (const file of Object.keys(files)) writeFileSync(join(web, file), 'x');
    for (const [file, type] of Object.entries(files)) {
      const response = await call('GET', `/${file}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe(type);
    }
    const route = await call('GET', '/tasks/1/files/src/main.ts');
    expect(route.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(route.text).toContain('id="root"');
    expect((await call('GET', '/assets/missing.js')).status).toBe(404);
    expect((await call('GET', '/%2e%2e/%2e%2e/etc/passwd')).text).toContain('id="root"');
  });
});
