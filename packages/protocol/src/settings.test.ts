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
