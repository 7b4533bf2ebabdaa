import { cpp } from './cpp.js';
import type { LanguageDescriptor } from './descriptor.js';
import { dockerfile } from './dockerfile.js';
import { erb } from './erb.js';
import { fortran } from './fortran.js';
import { go } from './go.js';
import { graphql } from './graphql.js';
import { html } from './html.js';
import { css } from './css.js';
import { json } from './json.js';
import { kotlin } from './kotlin.js';
import { php } from './php.js';
import { prisma } from './prisma.js';
import { python } from './python.js';
import { rust } from './rust.js';
import { shell } from './shell.js';
import { svelte } from './svelte.js';
import { typescript } from './typescript.js';
import { vim } from './vim.js';
import { yaml } from './yaml.js';
import { vue } from './vue.js';
import { astro } from './astro.js';
import { toml } from './toml.js';

export * from './descriptor.js';
export { RUST_ANALYZER_UNTRUSTED } from './rust.js';

/**
 * Every language Kandev serves, in catalog order (the settings page shows them so). Adding a
 * language is one descriptor file, one entry here and its locale strings (docs/adding-a-language.md).
 */
export const LANGUAGE_DESCRIPTORS = [
  typescript,
  python,
  go,
  rust,
  kotlin,
  json,
  yaml,
  shell,
  dockerfile,
  css,
  html,
  cpp,
  php,
  prisma,
  svelte,
  vim,
  fortran,
  vue,
  astro,
  graphql,
  erb,
  toml,
] as const;

/** The languages' ids: part of the wire contract. */
export type LanguageId = (typeof LANGUAGE_DESCRIPTORS)[number]['id'];

export const LANGUAGE_IDS: readonly LanguageId[] = LANGUAGE_DESCRIPTORS.map((d) => d.id);

export function isLanguageId(value: unknown): value is LanguageId {
  return typeof value === 'string' && (LANGUAGE_IDS as readonly string[]).includes(value);
}

const BY_ID = new Map<string, LanguageDescriptor<LanguageId>>(LANGUAGE_DESCRIPTORS.map((d) => [d.id, d]));

export function languageDescriptor(id: LanguageId): LanguageDescriptor<LanguageId> {
  const descriptor = BY_ID.get(id);
  // LanguageId is derived from the list: a missing entry is a build defect, not input.
  if (!descriptor) throw new Error(`no language descriptor for ${id}`);
  return descriptor;
}
