/**
 * Letters of other scripts that read as Latin ones (the idea of Unicode TR39's confusables, kept
 * to the lookalikes attackers use: Cyrillic, Greek, Armenian, Cherokee, small capitals, stroked
 * letters). Fullwidth and mathematical letters need no entry: NFKC maps them to ASCII first.
 * Both cases are listed, because folding happens before lower-casing: a Cyrillic `Н` reads as an
 * `H`, while its lower case `н` reads as a small-capital `h`.
 */

const LOOKALIKES: Readonly<Record<string, string>> = {
  a: 'аАαΑɑᴀᎪ',
  b: 'ВвЬьΒʙᏴƀ',
  c: 'сСϲϹᴄᏟ',
  d: 'ԁԀᴅᎠđ',
  e: 'еЕҽΕᴇᎬ',
  f: 'ꜰϜ',
  g: 'ɡɢᏀցԌ',
  h: 'һҺНнΗʜհᎻħ',
  i: 'іІιΙıɩɪӀᎥ',
  j: 'јЈϳᴊᎫȷ',
  k: 'кКκΚᴋᏦĸ',
  l: 'ӏʟᏞł',
  m: 'МмΜᴍᎷ',
  n: 'Νɴոηп',
  o: 'оОοΟσօՕᴏø',
  p: 'рРρΡᴘᏢ',
  q: 'ԛԚզ',
  r: 'гʀᎡ',
  s: 'ѕЅꜱᏚ',
  t: 'тТτΤᴛᎢŧ',
  u: 'υᴜսμ',
  v: 'νѵѴᴠᏙ',
  w: 'ԝԜωᴡᏔᎳ',
  x: 'хХχΧ',
  y: 'уУүҮγΥʏᎩ',
  z: 'ΖᴢᏃ',
  "'": '’‘ʼʹ′',
  '"': '“”″',
};

const FOLD = new Map<number, string>(
  Object.entries(LOOKALIKES).flatMap(([latin, lookalikes]) =>
    [...lookalikes].map((lookalike) => [lookalike.codePointAt(0) as number, latin] as const),
  ),
);

/** The Latin letter (or ASCII quote) `codePoint` reads as, or undefined when it reads as itself. */
export const latinLookalike = (codePoint: number): string | undefined => FOLD.get(codePoint);
