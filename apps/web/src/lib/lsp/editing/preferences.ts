import { editorFeatureOn, type LanguageId, type UserSettings } from '@kandev/protocol';

/** Per-language editing switches from the Editors settings page (all off by default but code lenses, see editorFeatureDefault). */
export interface EditorPreferences {
  formatOnSave: boolean;
  formatOnType: boolean;
  inlayHints: boolean;
  codeLens: boolean;
}

export const DEFAULT_PREFERENCES: EditorPreferences = { formatOnSave: false, formatOnType: false, inlayHints: false, codeLens: false };

export function preferencesOf(settings: Pick<UserSettings, 'lsp_editor_features'> | undefined, language: LanguageId): EditorPreferences {
  const entry = settings?.lsp_editor_features?.[language];
  return {
    formatOnSave: entry?.format_on_save === true,
    formatOnType: entry?.format_on_type === true,
    inlayHints: entry?.inlay_hints === true,
    codeLens: editorFeatureOn(entry, language, 'code_lens'),
  };
}
