import { describe, expect, it } from 'vitest';
import { containerEnvironment, DOCKER_DEFAULT_PATH } from './containerEnv.js';
import { containerSpec, repositorySubpaths, type ContainerSpecInput } from './containerSpec.js';
import { loadDockerConfig } from './dockerConfig.js';
import { seccompProfile } from './seccompProfile.js';

const base: ContainerSpecInput = {
  image: 'img',
  imageEnv: [],
  sessionId: '0b7e0c8e-5f7a-4c2e-9d51-2f3f7d8c1a11',
  owner: '/home/u/.kandev',
  token: 't0k',
  repositories: ['/src/app'],
  taskEnv: {},
  network: 'host',
  seccomp: 'sandbox',
  mounts: [{ hostPath: '/usr/bin/node', containerPath: '/opt/kandev/node', readOnly: true }],
};

function envOf(spec: ReturnType<typeof containerSpec>): Record<string, string> {
  return Object.fromEntries((spec.Env ?? []).map((e) => [e.slice(0, e.indexOf('=')), e.slice(e.indexOf('=') + 1)]));
}

describe('container spec', () => {
  it('mounts one repository as /workspace, several as /workspace/<name>, and names collide safely', () => {
    expect(containerSpec(base).HostConfig?.Mounts?.[0]).toEqual({ Type: 'bind', Source: '/src/app', Target: '/workspace', ReadOnly: false });
    expect(repositorySubpaths(['/a/web', '/b/web', '/c/api/'])).toEqual(['web', 'web-2', 'api']);
    const spec = containerSpec({ ...base, repositories: ['/a/web', '/c/api'] });
    expect(spec.HostConfig?.Mounts?.slice(0, 2).map((m) => m.Target)).toEqual(['/workspace/web', '/workspace/api']);
    expect(envOf(spec).AGENTCTL_REPOS).toBe('["web","api"]');
  });

  it('host networking: agentctl on an ephemeral loopback port, nothing published', () => {
    const spec = containerSpec(base);
    expect(spec.HostConfig?.NetworkMode).toBe('host');
    expect(spec.HostConfig?.PortBindings).toBeUndefined();
    expect(envOf(spec)).toMatchObject({ AGENTCTL_HOST: '127.0.0.1', AGENTCTL_PORT: '0', AGENTCTL_WORKSPACE: '/workspace', AGENTCTL_TOKEN: 't0k' });
  });

  it('published: a fixed inner port published on 127.0.0.1 only, on a port Docker picks', () => {
    const spec = containerSpec({ ...base, network: 'published' });
    expect(spec.HostConfig?.NetworkMode).toBe('bridge');
    expect(spec.ExposedPorts).toEqual({ '7421/tcp': {} });
    expect(spec.HostConfig?.PortBindings).toEqual({ '7421/tcp': [{ HostIp: '127.0.0.1', HostPort: '' }] });
    expect(envOf(spec)).toMatchObject({ AGENTCTL_HOST: '0.0.0.0', AGENTCTL_PORT: '7421' });
  });

  it('runs agentctl with the mounted node under docker-init, labelled with its session and owner', () => {
    const spec = containerSpec(base);
    expect([...(spec.Entrypoint as string[]), ...(spec.Cmd as string[])]).toEqual(['/opt/kandev/node', '/opt/kandev/agentctl.mjs']);
    expect(spec.HostConfig?.Init).toBe(true);
    // Ends with the backend: stdin held open by the backend's attach, removal on any exit.
    expect(spec).toMatchObject({ AttachStdin: true, OpenStdin: true, StdinOnce: true, HostConfig: { AutoRemove: true } });
    expect(envOf(spec).AGENTCTL_EXIT_ON_STDIN_CLOSE).toBe('1');
    expect(spec.Labels).toEqual({ 'dev.kandev.session': base.sessionId, 'dev.kandev.owner': base.owner });
    expect(spec.name).toBe(`kandev-${base.sessionId}`);
    expect(spec.HostConfig?.Mounts?.[1]).toEqual({ Type: 'bind', Source: '/usr/bin/node', Target: '/opt/kandev/node', ReadOnly: true });
  });
});

describe('seccomp', () => {
  it("sandbox: Kandev's own profile, passed to Docker inline; docker: no security option, so Docker's default applies", () => {
    const opts = containerSpec(base).HostConfig?.SecurityOpt ?? [];
    expect(opts).toHaveLength(1);
    expect(opts[0]?.startsWith('seccomp={')).toBe(true);
    expect(JSON.parse(opts[0]!.slice('seccomp='.length))).toEqual(seccompProfile());
    expect(containerSpec({ ...base, seccomp: 'docker' }).HostConfig?.SecurityOpt).toBeUndefined();
  });
});

describe('container environment', () => {
  const agentctl = { token: 't', repoSubpaths: [], listenHost: '127.0.0.1', listenPort: 0 };

  it('keeps the task PATH first and appends the runtime bin; without one, the image PATH, then Docker default', () => {
    expect(containerEnvironment({ ...agentctl, taskEnv: { PATH: '/tools/bin:/usr/bin' }, imageEnv: ['PATH=/go/bin:/usr/bin'] }).PATH).toBe(
      '/tools/bin:/usr/bin:/opt/kandev/bin',
    );
    expect(containerEnvironment({ ...agentctl, taskEnv: {}, imageEnv: ['PATH=/go/bin:/usr/bin'] }).PATH).toBe('/go/bin:/usr/bin:/opt/kandev/bin');
    expect(containerEnvironment({ ...agentctl, taskEnv: {}, imageEnv: [] }).PATH).toBe(`${DOCKER_DEFAULT_PATH}:/opt/kandev/bin`);
  });

  it('sets no HOME of its own (the image user keeps its home) unless the task does', () => {
    expect(containerEnvironment({ ...agentctl, taskEnv: {}, imageEnv: [] }).HOME).toBeUndefined();
    expect(containerEnvironment({ ...agentctl, taskEnv: { HOME: '/home/dev' }, imageEnv: [] }).HOME).toBe('/home/dev');
  });

  it("drops a task's AGENTCTL_* and image choice; agentctl's own variables win", () => {
    const env = containerEnvironment({
      ...agentctl,
      taskEnv: { AGENTCTL_TOKEN: 'stolen', AGENTCTL_EXTRA: 'x', KANDEV_DOCKER_IMAGE: 'img', GOPATH: '/go' },
      imageEnv: [],
    });
    expect(env).toMatchObject({ AGENTCTL_TOKEN: 't', GOPATH: '/go' });
    expect(env.AGENTCTL_EXTRA).toBeUndefined();
    expect(env.KANDEV_DOCKER_IMAGE).toBeUndefined();
  });
});

describe('docker config', () => {
  it('defaults to a published port and no image; reads DOCKER_HOST and the image', () => {
    expect(loadDockerConfig({})).toEqual({ ok: true, value: { host: undefined, image: undefined, network: 'published', mounts: [], seccomp: 'sandbox' } });
    expect(loadDockerConfig({ KANDEV_DOCKER_SECCOMP: 'docker' })).toMatchObject({ ok: true, value: { seccomp: 'docker' } });
    expect(loadDockerConfig({ DOCKER_HOST: 'unix:///s.sock', KANDEV_DOCKER_IMAGE: 'i', KANDEV_DOCKER_NETWORK: 'host' })).toMatchObject({
      ok: true,
      value: { host: 'unix:///s.sock', image: 'i', network: 'host' },
    });
  });

  it('refuses a bad network mode and bad or overlapping mounts, naming the variable', () => {
    expect(loadDockerConfig({ KANDEV_DOCKER_NETWORK: 'bridge' })).toMatchObject({ ok: false, error: expect.stringContaining('KANDEV_DOCKER_NETWORK') });
    expect(loadDockerConfig({ KANDEV_DOCKER_SECCOMP: 'unconfined' })).toMatchObject({ ok: false, error: expect.stringContaining('KANDEV_DOCKER_SECCOMP') });
    expect(loadDockerConfig({ KANDEV_DOCKER_MOUNTS: '/a:/b' })).toMatchObject({ ok: false, error: expect.stringContaining('JSON array') });
    expect(loadDockerConfig({ KANDEV_DOCKER_MOUNTS: '["rel:/b"]' })).toMatchObject({ ok: false, error: expect.stringContaining('absolute') });
    expect(loadDockerConfig({ KANDEV_DOCKER_MOUNTS: '["/a:/workspace/x"]' })).toMatchObject({ ok: false, error: expect.stringContaining('overlaps') });
    expect(loadDockerConfig({ KANDEV_DOCKER_MOUNTS: '["/a:/opt"]' })).toMatchObject({ ok: false, error: expect.stringContaining('overlaps') });
    expect(loadDockerConfig({ KANDEV_DOCKER_MOUNTS: '["/a:/b:rx"]' })).toMatchObject({ ok: false });
    expect(loadDockerConfig({ KANDEV_DOCKER_MOUNTS: '["/opt/tools:/opt/tools:ro","/c:/d"]' })).toMatchObject({
      ok: true,
      value: {
        mounts: [
          { hostPath: '/opt/tools', containerPath: '/opt/tools', readOnly: true },
          { hostPath: '/c', containerPath: '/d', readOnly: false },
        ],
      },
    });
  });
});
