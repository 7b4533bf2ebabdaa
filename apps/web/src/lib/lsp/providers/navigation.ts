import type * as Monaco from 'monaco-editor';
import { markKandevProvider } from '../builtins.js';
import type { FeatureRegistration } from '../capabilities.js';
import type { Disposable } from '@kandev/kit';
import type { ProviderHost, TextModel } from './host.js';
import { requestLocations } from './locations.js';
import { toLspPosition } from './ranges.js';

type NavigationFeature = 'implementation' | 'typeDefinition' | 'declaration';

const METHODS: Record<NavigationFeature, string> = {
  implementation: 'textDocument/implementation',
  typeDefinition: 'textDocument/typeDefinition',
  declaration: 'textDocument/declaration',
};

/** The one request behind all three: Location, Location[] or LocationLink[] at the caret, as definition does it. */
function locate(host: ProviderHost, registration: FeatureRegistration<NavigationFeature>) {
  return async (model: TextModel, position: Monaco.Position, token: Monaco.CancellationToken) => {
    const target = host.target(model, registration);
    if (!target) return null;
    host.context.flush(target.path);
    return requestLocations(host, METHODS[registration.feature], { textDocument: { uri: target.uri }, position: toLspPosition(position) }, token);
  };
}

/** Go to / Peek Implementations (Ctrl+F12 / Ctrl+Shift+F12 in Monaco's keymap). */
export function registerImplementationProvider(host: ProviderHost, registration: FeatureRegistration<'implementation'>): Disposable {
  const provider: Monaco.languages.ImplementationProvider = { provideImplementation: locate(host, registration) };
  return host.languages.registerImplementationProvider(host.selector, markKandevProvider(provider));
}

/** Go to / Peek Type Definition. */
export function registerTypeDefinitionProvider(host: ProviderHost, registration: FeatureRegistration<'typeDefinition'>): Disposable {
  const provider: Monaco.languages.TypeDefinitionProvider = { provideTypeDefinition: locate(host, registration) };
  return host.languages.registerTypeDefinitionProvider(host.selector, markKandevProvider(provider));
}

/** Go to / Peek Declaration. */
export function registerDeclarationProvider(host: ProviderHost, registration: FeatureRegistration<'declaration'>): Disposable {
  const provider: Monaco.languages.DeclarationProvider = { provideDeclaration: locate(host, registration) };
  return host.languages.registerDeclarationProvider(host.selector, markKandevProvider(provider));
}
