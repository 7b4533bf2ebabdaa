import { Emitter, type Event } from '@kandev/kit';
import { isThemePreference, resolveTheme, type ResolvedTheme, type ThemePreference } from './theme.js';

const STORAGE_KEY = 'kandev.theme';
const DARK_QUERY = '(prefers-color-scheme: dark)';

function readStored(storage: Storage | undefined): ThemePreference {
  try {
    const value = storage?.getItem(STORAGE_KEY);
    return isThemePreference(value) ? value : 'system';
  } catch {
    return 'system';
  }
}

function safeLocalStorage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

export interface ThemeState {
  preference: ThemePreference;
  resolved: ResolvedTheme;
}

/**
 * The window's theme (one per window, owned by its services): the stored preference, the OS setting when it is System, and the
 * `data-theme` attribute of <html> the design tokens hang off. Listeners (React views, Monaco)
 * hear every change, including the OS switching while the page is open.
 */
export class ThemeStore {
  private state: ThemeState;
  private readonly changes = new Emitter<void>();
  readonly onDidChange: Event<void> = this.changes.event;
  private readonly media: MediaQueryList | undefined;

  constructor() {
    // No window in unit tests that render views with react-dom/server: System resolves to light.
    this.media = typeof window !== 'undefined' && typeof window.matchMedia === 'function' ? window.matchMedia(DARK_QUERY) : undefined;
    const preference = readStored(safeLocalStorage());
    this.state = { preference, resolved: resolveTheme(preference, this.media?.matches ?? false) };
    this.media?.addEventListener('change', () => this.apply(this.state.preference));
    this.paint();
  }

  get = (): ThemeState => this.state;

  setPreference(preference: ThemePreference): void {
    try {
      safeLocalStorage()?.setItem(STORAGE_KEY, preference);
    } catch {
      // private mode: the choice lasts for this page only
    }
    this.apply(preference);
  }

  private apply(preference: ThemePreference): void {
    const resolved = resolveTheme(preference, this.media?.matches ?? false);
    if (resolved === this.state.resolved && preference === this.state.preference) return;
    this.state = { preference, resolved };
    this.paint();
    this.changes.fire();
  }

  private paint(): void {
    if (typeof document === 'undefined') return;
    document.documentElement.dataset.theme = this.state.resolved;
    document.documentElement.dataset.themePreference = this.state.preference;
  }
}
