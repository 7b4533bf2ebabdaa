import { languageDescriptor, languageForPath, type FileGlyph } from '@kandev/protocol';
import { File, FileBraces, FileCode, FileCog, FileImage, FileTerminal, FileText, Folder, FolderOpen, type LucideIcon } from 'lucide-react';

interface IconKind {
  icon: LucideIcon;
  /** A --icon-* token: the colour hints the type, the glyph carries it (colour is never the only cue). */
  tone: string;
}

/** The glyph of each kind a language descriptor can name. */
const GLYPHS: Readonly<Record<FileGlyph, LucideIcon>> = { code: FileCode, braces: FileBraces, terminal: FileTerminal, cog: FileCog };

// Files no language serves: what they are is hinted by a generic glyph. Languages draw their own
// icon from their descriptors (glyph, tone, per-extension tones, per-name icons).
const DATA = new Set(['json5', 'xml', 'lock']);
const TEXT = new Set(['md', 'mdx', 'txt', 'rst', 'adoc', 'log', 'csv']);
const IMAGE = new Set(['png', 'jpg', 'jpeg', 'gif', 'svg', 'webp', 'ico', 'bmp']);
const SCRIPT = new Set(['zsh', 'fish', 'ps1', 'bat', 'cmd']);
const CONFIG_NAMES = new Set(['makefile', '.gitignore', '.editorconfig', '.env', 'go.mod', 'go.sum', '.npmrc']);

/** Which icon a file gets, from its name and extension. */
export function fileIconKind(name: string): IconKind {
  const lower = name.toLowerCase();
  const ext = lower.includes('.') ? lower.slice(lower.lastIndexOf('.') + 1) : '';
  // Tool configuration (`vite.config.ts`, `.env.local`) reads as configuration whatever its language.
  if (CONFIG_NAMES.has(lower) || lower.startsWith('.env') || /\.config\.[cm]?[jt]s$/.test(lower)) return { icon: FileCog, tone: 'config' };
  const language = languageForPath(lower);
  if (language) {
    const { glyph, tone, extensionTones, fileNames } = languageDescriptor(language).icon;
    const named = fileNames[lower];
    if (named) return { icon: GLYPHS[named.glyph], tone: named.tone };
    return { icon: GLYPHS[glyph], tone: extensionTones[ext] ?? tone };
  }
  if (DATA.has(ext)) return { icon: FileBraces, tone: 'json' };
  if (TEXT.has(ext)) return { icon: FileText, tone: 'md' };
  if (IMAGE.has(ext)) return { icon: FileImage, tone: 'image' };
  if (SCRIPT.has(ext)) return { icon: FileTerminal, tone: 'shell' };
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
