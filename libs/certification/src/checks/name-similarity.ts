/** How alike two names look to a person choosing a skill (C10 squatting). */

/** Longer names are cut before comparing: the cost is quadratic, and no skill name is this long. */
const MAX_COMPARED_LENGTH = 128;
/** Below this length two edits turn almost any name into another (`git` → `gh`), so only confusable spellings count. */
const MIN_LENGTH_FOR_DISTANCE = 5;
const MAX_DISTANCE = 2;

export type Likeness = { kind: 'same' } | { kind: 'confusable' } | { kind: 'near'; distance: number };

export function likeness(a: string, b: string): Likeness | null {
  const x = a.toLowerCase().slice(0, MAX_COMPARED_LENGTH);
  const y = b.toLowerCase().slice(0, MAX_COMPARED_LENGTH);
  if (x === y) return { kind: 'same' };
  if (confusableKey(x) === confusableKey(y)) return { kind: 'confusable' };
  if (Math.min(x.length, y.length) < MIN_LENGTH_FOR_DISTANCE) return null;
  const distance = damerauLevenshtein(x, y);
  return distance <= MAX_DISTANCE ? { kind: 'near', distance } : null;
}

/** One spelling for names a reader takes for the same: separators dropped, rn→m, 0→o, 1/i→l. */
export const confusableKey = (name: string): string =>
  name
    .toLowerCase()
    .replace(/[-_.\s]/g, '')
    .replace(/rn/g, 'm')
    .replace(/0/g, 'o')
    .replace(/[1i]/g, 'l');

/** Edit distance where swapping two neighbours is one edit (optimal string alignment). */
export function damerauLevenshtein(a: string, b: string): number {
  // Rows i-2, i-1 and i of the usual matrix are all that is needed.
  let before = new Array<number>(b.length + 1).fill(0);
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(
        (previous[j] as number) + 1,
        (current[j - 1] as number) + 1,
        (previous[j - 1] as number) + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, (before[j - 2] as number) + 1);
      }
      current.push(best);
    }
    before = previous;
    previous = current;
  }
  return previous[b.length] as number;
}
