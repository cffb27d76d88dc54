import { normalizeText, sourceSpan } from './normalize';

const read = (text: string): string => normalizeText(text).text;

describe('normalizeText', () => {
  it.each([
    ['lower case', 'IGNORE All', 'ignore all'],
    ['fullwidth letters and spaces (NFKC)', 'ｉｇｎｏｒｅ\u3000ａｌｌ', 'ignore all'],
    ['mathematical bold and script letters', '𝐢𝐠𝐧𝐨𝐫𝐞 𝓪𝓵𝓵', 'ignore all'],
    ['circled and parenthesised letters', 'ⓘⓖⓝⓞⓡⓔ', 'ignore'],
    ['ligatures', 'ﬁle ﬂow', 'file flow'],
    ['Cyrillic lookalikes', 'іgnоrе аll рrеvіоus', 'ignore all previous'],
    ['Cyrillic capitals', 'ІGNОRЕ АLL', 'ignore all'],
    ['Greek lookalikes', 'ΙGΝΟRΕ αll', 'ignore all'],
    ['Greek capital eta reads H, small eta reads n', 'Ηello ηo', 'hello no'],
    ['Armenian lookalikes', 'օհ', 'oh'],
    ['Cherokee lookalikes', 'ᎪᏴᏟ', 'abc'],
    ['small capitals', 'ɪɢɴᴏʀᴇ', 'ignore'],
    ['accents dropped', 'ïgnörè prévious', 'ignore previous'],
    ['combining accents dropped', 'i\u0308gnore', 'ignore'],
    ['zero-width characters dropped', 'ig\u200Bno\u200Dre\uFEFF all', 'ignore all'],
    ['soft hyphens dropped', 'in\u00ADstruc\u00ADtions', 'instructions'],
    ['tag characters dropped', 'a\u{E0041}\u{E0042}b', 'ab'],
    ['variation selectors dropped', 'ok\uFE0F', 'ok'],
    ['bidi controls dropped', '\u202Eignore\u202C', 'ignore'],
    ['ANSI sequences dropped', 'ig\x1b[8mnore\x1b[0m all', 'ignore all'],
    ['OSC strings dropped', 'a\x1b]8;;https://x\x07b', 'ab'],
    ['control characters dropped', 'a\0b\x7Fc', 'abc'],
    ['Hangul fillers read as spaces', 'ignore\u3164all', 'ignore all'],
    ['Braille blanks read as spaces', 'ignore\u2800\u2800all', 'ignore all'],
    ['whitespace collapsed', '  ignore \t  all  ', 'ignore all'],
    ['a line break kept as one', 'ignore\r\n  all', 'ignore\nall'],
    ['a blank line kept as a paragraph break', 'one\n\n\n two', 'one\n\ntwo'],
    ['line separators read as line breaks', 'one\u2028two', 'one\ntwo'],
    ['typographic apostrophes folded', 'don’t', "don't"],
    ['digits left alone', 'id_ed25519 0 1', 'id_ed25519 0 1'],
    ['other scripts left alone', '日本語 مرحبا', '日本語 مرحبا'],
    ['nothing', '', ''],
  ])('%s', (_, text, normalized) => {
    expect(read(text)).toBe(normalized);
  });

  it('maps every normalised character back to where it came from', () => {
    const source = 'Say: ｉｇ\u200Bｎｏｒｅ  ALL';
    const normalized = normalizeText(source);
    const at = normalized.text.indexOf('ignore all');
    const span = sourceSpan(normalized, at, at + 'ignore all'.length);
    expect(source.slice(span.index, span.index + span.length)).toBe('ｉｇ\u200Bｎｏｒｅ  ALL');
  });

  it('spans a surrogate pair whole', () => {
    const source = 'x 𝐢𝐠𝐧𝐨𝐫𝐞';
    const normalized = normalizeText(source);
    const span = sourceSpan(normalized, 2, 8);
    expect(source.slice(span.index, span.index + span.length)).toBe('𝐢𝐠𝐧𝐨𝐫𝐞');
  });

  it('keeps one offset per normalised code unit, also where NFKC expands a character', () => {
    const normalized = normalizeText('a㎏b');
    expect([normalized.text, [...normalized.starts]]).toEqual(['akgb', [0, 1, 1, 2]]);
  });
});
