import type * as Monaco from 'monaco-editor';
import type { MarkupContent, SignatureHelp, SignatureHelpContext } from 'vscode-languageserver-protocol';
import { markKandevProvider } from '../builtins.js';
import type { FeatureRegistration } from '../capabilities.js';
import type { Disposable } from '@kandev/kit';
import type { ProviderHost } from './host.js';
import { toDocumentation } from './markdown.js';
import { toLspPosition } from './ranges.js';

function toLspDocumentation(doc: string | Monaco.IMarkdownString | undefined): string | MarkupContent | undefined {
  if (doc === undefined) return undefined;
  return typeof doc === 'string' ? doc : { kind: 'markdown', value: doc.value };
}

/** Monaco's signature help (what is showing) -> LSP form, for retrigger context. */
export function toLspSignatureHelp(help: Monaco.languages.SignatureHelp): SignatureHelp {
  return {
    activeSignature: help.activeSignature,
    activeParameter: help.activeParameter,
    signatures: help.signatures.map((s) => ({
      label: s.label,
      documentation: toLspDocumentation(s.documentation),
      parameters: s.parameters.map((p) => ({ label: p.label, documentation: toLspDocumentation(p.documentation) })),
      ...(s.activeParameter !== undefined ? { activeParameter: s.activeParameter } : {}),
    })),
  };
}

/** Trigger kinds have the same numbers in Monaco and LSP (1 invoke, 2 character, 3 content change). */
export function toLspSignatureHelpContext(context: Monaco.languages.SignatureHelpContext): SignatureHelpContext {
  const out: SignatureHelpContext = { triggerKind: context.triggerKind as 1 | 2 | 3, isRetrigger: context.isRetrigger };
  if (context.triggerCharacter) out.triggerCharacter = context.triggerCharacter;
  if (context.activeSignatureHelp) out.activeSignatureHelp = toLspSignatureHelp(context.activeSignatureHelp);
  return out;
}

export function toMonacoSignatureHelp(help: SignatureHelp | null | undefined): Monaco.languages.SignatureHelpResult | null {
  if (!help || !Array.isArray(help.signatures) || help.signatures.length === 0) return null;
  const value: Monaco.languages.SignatureHelp = {
    activeSignature: help.activeSignature ?? 0,
    activeParameter: help.activeParameter ?? 0,
    signatures: help.signatures.map((s) => {
      const signature: Monaco.languages.SignatureInformation = {
        label: s.label,
        parameters: (s.parameters ?? []).map((p) => {
          const parameter: Monaco.languages.ParameterInformation = { label: p.label };
          const doc = toDocumentation(p.documentation);
          if (doc !== undefined) parameter.documentation = doc;
          return parameter;
        }),
      };
      const doc = toDocumentation(s.documentation);
      if (doc !== undefined) signature.documentation = doc;
      if (typeof s.activeParameter === 'number') signature.activeParameter = s.activeParameter;
      return signature;
    }),
  };
  return { value, dispose: () => undefined };
}

/** Registered only when advertised; trigger and retrigger characters exactly as advertised (S21). */
export function registerSignatureHelpProvider(host: ProviderHost, registration: FeatureRegistration<'signatureHelp'>): Disposable {
  const options = registration.options;
  const provider: Monaco.languages.SignatureHelpProvider = {
    signatureHelpTriggerCharacters: [...(options.triggerCharacters ?? [])],
    signatureHelpRetriggerCharacters: [...(options.retriggerCharacters ?? [])],
    async provideSignatureHelp(model, position, token, context) {
      const target = host.target(model, registration);
      if (!target) return null;
      host.context.flush(target.path);
      try {
        const help = await host.context.request<SignatureHelp | null>(
          'textDocument/signatureHelp',
          { textDocument: { uri: target.uri }, position: toLspPosition(position), context: toLspSignatureHelpContext(context) },
          token,
        );
        return toMonacoSignatureHelp(help);
      } catch {
        return null;
      }
    },
  };
  return host.languages.registerSignatureHelpProvider(host.selector, markKandevProvider(provider));
}
