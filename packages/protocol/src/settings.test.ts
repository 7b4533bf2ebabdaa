import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, mergeSettings } from './settings.js';

describe('editing switches in settings', () => {
  it('are off by default, merge per language and switch, and a null language entry resets it', () => {
    expect(DEFAULT_SETTINGS.lsp_editor_features).toEqual({});
    const one = mergeSettings(DEFAULT_SETTINGS, { lsp_editor_features: { typescript: { format_on_save: true } } });
    expect(one).toMatchObject({ ok: true, settings: { lsp_editor_features: { typescript: { format_on_save: true } } } });
    const two = mergeSettings(one.ok ? one.settings : DEFAULT_SETTINGS, {
      lsp_editor_features: { typescript: { inlay_hints: true }, go: { format_on_type: true } },
    });
    expect(two.ok && two.settings.lsp_editor_features).toEqual({ typescript: { format_on_save: true, inlay_hints: true }, go: { format_on_type: true } });
    const reset = mergeSettings(two.ok ? two.settings : DEFAULT_SETTINGS, { lsp_editor_features: { typescript: null } });
    expect(reset.ok && reset.settings.lsp_editor_features).toEqual({ go: { format_on_type: true } });
  });

  it('refuses unknown languages, unknown switches and non-boolean values with the field named', () => {
    expect(mergeSettings(DEFAULT_SETTINGS, { lsp_editor_features: { cobol: {} } })).toMatchObject({ ok: false, error: { field: 'lsp_editor_features' } });
    expect(mergeSettings(DEFAULT_SETTINGS, { lsp_editor_features: { go: { format_on_paste: true } } })).toMatchObject({
      ok: false,
      error: { message: 'go: unknown switch format_on_paste' },
    });
    expect(mergeSettings(DEFAULT_SETTINGS, { lsp_editor_features: { go: { inlay_hints: 'yes' } } })).toMatchObject({ ok: false });
  });
});

describe('settings refusals name the field and what is wrong with it', () => {
  it.each([
    [{ locale: 'fr' }, 'locale', 'must be one of en, pseudo, pt-pt, zh-cn'],
    [{ show_status_bar: 'yes' }, 'show_status_bar', 'must be true or false'],
    [{ lsp_status_location: 'menu' }, 'lsp_status_location', 'must be toolbar or status_bar'],
    [{ status_bar_order: ['file', 3] }, 'status_bar_order', 'must be an array of strings'],
    [{ lsp_auto_start_languages: 'go' }, 'lsp_auto_start_languages', 'must be an array of language ids'],
    [{ lsp_auto_start_languages: ['go', 'cobol'] }, 'lsp_auto_start_languages', 'unknown language: cobol'],
    [{ lsp_auto_install_languages: ['kotlin'] }, 'lsp_auto_install_languages', 'language cannot be used here: kotlin'],
    [{ lsp_server_configs: [] }, 'lsp_server_configs', 'must be an object keyed by language id'],
    [{ lsp_server_configs: { cobol: {} } }, 'lsp_server_configs', 'unknown language: cobol'],
    [{ lsp_server_configs: { go: 'x' } }, 'lsp_server_configs', 'go: configuration must be a JSON object'],
    [{ lsp_editor_features: { go: 1 } }, 'lsp_editor_features', 'go: must be an object of switches'],
    [{ lsp_editor_features: { go: { inlay_hints: 'yes' } } }, 'lsp_editor_features', 'go.inlay_hints: must be true or false'],
    [{ lsp_colour: 'red' }, 'lsp_colour', 'unknown setting'],
  ])('%j is refused at %s: %s', (patch, field, message) => {
    expect(mergeSettings(DEFAULT_SETTINGS, patch)).toEqual({ ok: false, error: { field, message } });
  });

  it('the first wrong field refuses the whole update, and repeats in a language list are dropped', () => {
    expect(mergeSettings(DEFAULT_SETTINGS, { locale: 'pt-pt', show_status_bar: 0 })).toMatchObject({ ok: false, error: { field: 'show_status_bar' } });
    expect(mergeSettings(DEFAULT_SETTINGS, { lsp_auto_start_languages: ['go', 'go', 'python'] })).toMatchObject({
      ok: true,
      settings: { lsp_auto_start_languages: ['go', 'python'] },
    });
  });
});
