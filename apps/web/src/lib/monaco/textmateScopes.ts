/**
 * TextMate scopes -> the token types Monaco's themes colour. Monaco matches a token type against
 * its theme's rules by dotted prefix (`comment.line` takes `comment`'s colour), but its themes name
 * some things differently from TextMate (`number`, not `constant.numeric`; `tag`, not
 * `entity.name.tag`): the innermost scope that has a counterpart decides.
 */
const SCOPE_PREFIXES: readonly (readonly [string, string])[] = [
  ['comment', 'comment'],
  ['string.regexp', 'regexp'],
  ['string', 'string'],
  ['constant.numeric', 'number'],
  ['constant.language', 'keyword'],
  ['constant.character.escape', 'string.escape'],
  ['constant', 'constant'],
  ['entity.name.tag', 'tag'],
  ['entity.other.attribute-name', 'attribute.name'],
  ['support.type.property-name', 'attribute.name'],
  ['meta.object-literal.key', 'attribute.name'],
  ['entity.name.type', 'type'],
  ['entity.name.class', 'type'],
  ['entity.other.inherited-class', 'type'],
  ['support.type', 'type'],
  ['support.class', 'type'],
  ['storage.type', 'keyword'],
  ['storage.modifier', 'keyword'],
  ['keyword.operator', 'delimiter'],
  ['keyword', 'keyword'],
  ['variable', 'variable'],
  ['punctuation.definition.tag', 'delimiter'],
  ['punctuation', 'delimiter'],
  ['markup.heading', 'keyword'],
  ['markup.bold', 'strong'],
  ['markup.italic', 'emphasis'],
];

function tokenOfScope(scope: string): string | undefined {
  for (const [prefix, token] of SCOPE_PREFIXES) if (scope === prefix || scope.startsWith(`${prefix}.`)) return token;
  return undefined;
}

/** The Monaco token type of a TextMate token, from its scopes (outermost first); '' when none maps. */
export function monacoTokenOfScopes(scopes: readonly string[]): string {
  for (let i = scopes.length - 1; i >= 0; i--) {
    const token = tokenOfScope(scopes[i]!);
    if (token !== undefined) return token;
  }
  return '';
}
