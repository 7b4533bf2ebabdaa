/**
 * Monaco's icons (find widget, folding, suggest, lightbulb...) are glyphs of its `codicon` font,
 * which the browser fetches only when a glyph is first drawn. The font file is served behind the
 * page's sign-in like every asset, so if the first glyph comes after the sign-in ended (a find
 * widget opened while signed out), the request is refused and every icon stays blank for the
 * life of the page. Loading the face as soon as Monaco's styles are in the page avoids that.
 * A failure is ignored: the icons would simply be fetched later, as before.
 */
export function preloadCodicons(fonts: Pick<FontFaceSet, 'load'> | undefined = globalThis.document?.fonts): Promise<void> {
  if (!fonts) return Promise.resolve();
  return fonts.load('16px codicon').then(
    () => undefined,
    () => undefined,
  );
}
