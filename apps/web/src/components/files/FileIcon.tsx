import { languageDescriptor, languageForPath, type FileGlyph } from '@kandev/protocol';
import { File, FileBraces, FileCode, FileCog, FileImage, FileTerminal, FileText, Folder, FolderOpen, type LucideIcon } from 'lucide-react';

interface IconKind {
  icon: LucideIcon;
  /** A --icon-* token: the colour hints the type, the glyph carries it (colour is never the only cue). */
  tone: string;
}

/** The glyph of each kind a language descriptor can name. */
const GLYPHS: Readonly<Record<FileGlyph, LucideIcon>> = { code: FileCode, braces: FileBraces, terminal: FileTerminal, cog: FileCog };

/** Code of languages Kandev has no server for: a tone that hints at it. */
const OTHER_CODE: Record<string, string> = {
  java: 'kt',
  cs: 'config',
  rb: 'rs',
  php: 'kt',
  swift: 'rs',
  sql: 'config',
  vue: 'style',
  svelte: 'style',
};
const STYLE = new Set(['css', 'scss', 'sass', 'less']);
const DATA = new Set(['json', 'jsonc', 'json5', 'yaml', 'yml', 'toml', 'xml', 'lock']);
const TEXT = new Set(['md', 'mdx', 'txt', 'rst', 'adoc', 'log', 'csv']);
const IMAGE = new Set(['png', 'jpg', 'jpeg', 'gif', 'svg', 'webp', 'ico', 'bmp']);
const SHELL = new Set(['sh', 'bash', 'zsh', 'fish', 'ps1', 'bat', 'cmd']);
const CONFIG_NAMES = new Set([
  'dockerfile',
  'makefile',
  '.gitignore',
  '.editorconfig',
  '.env',
  'go.mod',
  'go.sum',
  '.npmrc',
  '.prettierrc',
  'tsconfig.json',
  'package.json',
]);

/** Which icon a file gets, from its name and extension. */
export function fileIconKind(name: string): IconKind {
  const lower = name.toLowerCase();
  if (CONFIG_NAMES.has(lower) || lower.startsWith('.env') || lower.endsWith('.config.js') || lower.endsWith('.config.ts'))
    return { icon: FileCog, tone: 'config' };
  const ext = lower.includes('.') ? lower.slice(lower.lastIndexOf('.') + 1) : '';
  const language = languageForPath(lower);
  if (language) {
    const { glyph, tone, extensionTones } = languageDescriptor(language).icon;
    return { icon: GLYPHS[glyph], tone: extensionTones[ext] ?? tone };
  }
  const code = OTHER_CODE[ext];
  if (code) return { icon: FileCode, tone: code };
  if (STYLE.has(ext)) return { icon: FileCode, tone: 'style' };
  if (DATA.has(ext)) return { icon: FileBraces, tone: 'json' };
  if (TEXT.has(ext)) return { icon: FileText, tone: 'md' };
  if (IMAGE.has(ext)) return { icon: FileImage, tone: 'image' };
  if (SHELL.has(ext)) return { icon: FileTerminal, tone: 'shell' };
  return { icon: File, tone: 'md' };
}

export function FileIcon({ name, size = 16 }: { name: string; size?: number }) {
  const { icon: Icon, tone } = fileIconKind(name);
  return <Icon className={`file-icon tone-${tone}`} size={size} aria-hidden="true" strokeWidth={1.75} />;
}

export function FolderIcon({ open, size = 16 }: { open: boolean; size?: number }) {
  const Icon = open ? FolderOpen : Folder;
  return <Icon className="file-icon tone-folder" size={size} aria-hidden="true" strokeWidth={1.75} />;
}
