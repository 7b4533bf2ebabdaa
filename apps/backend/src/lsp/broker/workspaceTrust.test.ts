import { describe, expect, it } from 'vitest';
import type { ConfigurationGuard, InitializeGuard } from '@kandev/protocol';
import { applyConfigurationGuard, applyInitializeGuard, pinSetting } from './workspaceTrust.js';

/**
 * The generic guard kinds, with data no shipped language uses: a guard is the descriptor's data
 * applied by one implementation per kind, so a new language needs no code here.
 */
describe('untrusted-workspace guard kinds', () => {
  const pinOption: InitializeGuard = {
    kind: 'pin_option_to_host_tool',
    option: 'runtime.interpreter.path',
    tool: 'ruby',
    drop: ['runtime.bundlerPath', 'plugins'],
    refusal: 'no host ruby',
  };

  it('pin_option_to_host_tool: the option is the tool whatever was sent, the dropped options are gone, the rest is kept', () => {
    const params = {
      processId: 1,
      initializationOptions: { runtime: { interpreter: { path: '/ws/bin/ruby', args: ['-w'] }, bundlerPath: '/ws/bin/bundle' }, plugins: ['x'], keep: 1 },
    };
    expect(applyInitializeGuard(pinOption, { tools: { ruby: '/usr/bin/ruby' } }, params)).toEqual({
      ok: true,
      params: { processId: 1, initializationOptions: { runtime: { interpreter: { path: '/usr/bin/ruby', args: ['-w'] } }, keep: 1 } },
    });
    // A non-object on the way is replaced; no initializationOptions at all still gets the pin.
    expect(applyInitializeGuard(pinOption, { tools: { ruby: '/usr/bin/ruby' } }, { initializationOptions: { runtime: 'x' } })).toEqual({
      ok: true,
      params: { initializationOptions: { runtime: { interpreter: { path: '/usr/bin/ruby' } } } },
    });
    expect(applyInitializeGuard(pinOption, { tools: { ruby: '/usr/bin/ruby' } }, {})).toEqual({
      ok: true,
      params: { initializationOptions: { runtime: { interpreter: { path: '/usr/bin/ruby' } } } },
    });
  });

  it('pin_option_to_host_tool: without that tool (none found, or only another tool) initialize is refused', () => {
    expect(applyInitializeGuard(pinOption, undefined, {})).toEqual({ ok: false, message: 'no host ruby' });
    expect(applyInitializeGuard(pinOption, { tools: { python: '/usr/bin/python3' } }, {})).toEqual({ ok: false, message: 'no host ruby' });
  });

  const pinSettingGuard: ConfigurationGuard = { kind: 'pin_setting_to_host_tool', setting: 'ruby.interpreter.path', tool: 'ruby' };

  it('pin_setting_to_host_tool: the setting is the tool however the user spelled it, other settings kept', () => {
    const config = {
      ruby: { interpreter: { path: '/ws/bin/ruby', warnings: true }, format: 'rubocop' },
      'ruby.interpreter': { path: '/ws/bin/ruby2', other: 1 },
      'ruby.interpreter.path': '/ws/bin/ruby3',
      other: { kept: true },
    };
    expect(applyConfigurationGuard(pinSettingGuard, { tools: { ruby: '/usr/bin/ruby' } }, config)).toEqual({
      ruby: { interpreter: { path: '/usr/bin/ruby', warnings: true }, format: 'rubocop' },
      'ruby.interpreter': { other: 1 },
      other: { kept: true },
    });
  });

  it('pin_setting_to_host_tool: without the tool the setting is removed, so the server picks its own default', () => {
    expect(applyConfigurationGuard(pinSettingGuard, {}, { ruby: { interpreter: { path: '/ws/bin/ruby' } }, 'ruby.interpreter.path': '/ws/x' })).toEqual({
      ruby: { interpreter: {} },
    });
    expect(applyConfigurationGuard(pinSettingGuard, { tools: { ruby: '/usr/bin/ruby' } }, undefined)).toEqual({
      ruby: { interpreter: { path: '/usr/bin/ruby' } },
    });
  });

  it('pinSetting never changes its input', () => {
    const config = { a: { b: '/ws/x' }, 'a.b': '/ws/y' };
    const copy = structuredClone(config);
    expect(pinSetting(config, ['a', 'b'], '/host/x')).toEqual({ a: { b: '/host/x' } });
    expect(config).toEqual(copy);
  });
});
