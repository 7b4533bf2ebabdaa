import {
  AUTO_INSTALLABLE_LANGUAGES,
  isInstallStrategy,
  isLanguageId,
  LANGUAGE_IDS,
  languageDescriptor,
  type LanguageCatalogEntry,
  type LanguageId,
} from '@kandev/protocol';

/** One Editors-settings card: what the backend's catalog said, with safe defaults for what it left out. */
export interface LanguageCard {
  id: LanguageId;
  /** The catalog's display name; the UI falls back to its own localized language name. */
  name?: string;
  extensions: string[];
  /** Well-known file names (`Dockerfile`, `.bashrc`); undefined when the language has none. */
  fileNames?: string[];
  binary?: string;
  installStrategy?: LanguageCatalogEntry['installStrategy'];
  installCommand?: string;
  /** Undefined when the backend did not say (shown as "not reported", never as "none"). */
  prerequisites?: string[];
  managedDestination?: string;
  autoInstallable: boolean;
  experimental: boolean;
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value : undefined);
const strings = (value: unknown): string[] | undefined =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string' && v.trim() !== '') : undefined;

/**
 * Cards for every catalog language, in catalog order, from whatever GET /api/languages returned.
 * Missing entries or fields never break the page: extensions, file names and whether the language is
 * experimental come from its descriptor, auto-install availability from the settings schema (which
 * refuses it for a server Kandev never installs).
 */
export function languageCards(entries: ReadonlyArray<Partial<LanguageCatalogEntry>>): LanguageCard[] {
  const byId = new Map<LanguageId, Partial<LanguageCatalogEntry>>();
  for (const entry of entries) if (isLanguageId(entry.id) && !byId.has(entry.id)) byId.set(entry.id, entry);
  const order = [...byId.keys(), ...LANGUAGE_IDS.filter((id) => !byId.has(id))];
  return order.map((id) => {
    const entry = byId.get(id) ?? {};
    const descriptor = languageDescriptor(id);
    const card: LanguageCard = {
      id,
      extensions: strings(entry.extensions) ?? [...descriptor.files.extensions],
      autoInstallable:
        typeof entry.autoInstallable === 'boolean' ? entry.autoInstallable && AUTO_INSTALLABLE_LANGUAGES.includes(id) : AUTO_INSTALLABLE_LANGUAGES.includes(id),
      experimental: typeof entry.experimental === 'boolean' ? entry.experimental : descriptor.catalog.experimental,
    };
    const fileNames = strings(entry.fileNames) ?? [...descriptor.files.fileNames];
    if (fileNames.length > 0) card.fileNames = fileNames;
    const name = text(entry.name);
    if (name) card.name = name;
    const binary = text(entry.binary);
    if (binary) card.binary = binary;
    if (isInstallStrategy(entry.installStrategy)) card.installStrategy = entry.installStrategy;
    const command = text(entry.installCommand);
    if (command) card.installCommand = command;
    const prerequisites = strings(entry.prerequisites);
    if (prerequisites) card.prerequisites = prerequisites;
    const destination = text(entry.managedDestination);
    if (destination) card.managedDestination = destination;
    return card;
  });
}
