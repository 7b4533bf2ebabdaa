import { describe, expect, it } from 'vitest';
import { monacoTokenOfScopes } from './textmateScopes.js';

describe("TextMate scopes to Monaco's token types", () => {
  it('the innermost scope with a counterpart in Monaco themes decides', () => {
    expect(monacoTokenOfScopes(['source.toml', 'comment.line.number-sign.toml'])).toBe('comment');
    expect(monacoTokenOfScopes(['source.svelte', 'meta.tag.start.svelte', 'entity.name.tag.svelte'])).toBe('tag');
    expect(monacoTokenOfScopes(['source.toml', 'constant.numeric.integer.toml'])).toBe('number');
    expect(monacoTokenOfScopes(['source.php', 'string.quoted.double.php', 'constant.character.escape.php'])).toBe('string.escape');
    expect(monacoTokenOfScopes(['source.prisma', 'storage.type.model.prisma'])).toBe('keyword');
    expect(monacoTokenOfScopes(['text.html.vue', 'entity.other.attribute-name.html'])).toBe('attribute.name');
  });

  it('a scope with no counterpart is plain text, not a guess', () => {
    expect(monacoTokenOfScopes(['source.toml'])).toBe('');
    expect(monacoTokenOfScopes(['source.php', 'meta.function-call.php'])).toBe('');
    // `stringy` is not `string`: prefixes match whole segments.
    expect(monacoTokenOfScopes(['source.x', 'stringy.thing'])).toBe('');
  });
});
