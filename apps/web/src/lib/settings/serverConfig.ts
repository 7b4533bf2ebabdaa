/** The per-language LSP JSON of the Editors settings (lsp_server_configs). */
export type ServerConfigParse = { ok: true; value: Record<string, unknown> | null } | { ok: false; error: 'invalid' | 'notObject' };

/**
 * Parses the text a person typed. Empty means "no settings" (null deletes the language's entry);
 * anything else must be a JSON object, as workspace/configuration answers are. Invalid text is
 * refused here, before anything is sent.
 */
export function parseServerConfig(input: string): ServerConfigParse {
  if (input.trim() === '') return { ok: true, value: null };
  let value: unknown;
  try {
    value = JSON.parse(input);
  } catch {
    return { ok: false, error: 'invalid' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, error: 'notObject' };
  return { ok: true, value: value as Record<string, unknown> };
}

export function formatServerConfig(value: Record<string, unknown> | undefined): string {
  return value && Object.keys(value).length > 0 ? JSON.stringify(value, null, 2) : '';
}
