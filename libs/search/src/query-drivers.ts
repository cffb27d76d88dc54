/**
 * Which words a search reads first (docs/search.md, "Postings"). A document matches a full-text
 * query only if it holds every positive term of at least one conjunction of the query's
 * disjunctive form, so walking, for each conjunction, the postings of its rarest term visits
 * every match, best first. These functions are the pure part: the PostgreSQL text of a
 * tsquery → its conjunctions → the words to walk.
 */

/** A positive term of a tsquery: a lexeme, or a prefix of lexemes (`'kuber':*`). */
export interface QueryTerm {
  lexeme: string;
  prefix: boolean;
}

/** Disjunctive forms past this many conjunctions are not walked (the full-text index answers them). */
export const MAX_CONJUNCTIONS = 32;

type Node =
  | { op: 'term'; term: QueryTerm }
  | { op: 'not'; arg: Node }
  | { op: 'and' | 'or'; left: Node; right: Node }
  /** `left <distance> right`: right's first word `distance` positions after left's last. */
  | { op: 'phrase'; left: Node; right: Node; distance: number };

/** A tsquery's text as PostgreSQL prints it: `'a' & ( 'b' | 'c':* ) & !'d' <-> 'e'`. */
function parse(text: string): Node {
  let i = 0;
  const skip = () => {
    while (text[i] === ' ') i++;
  };
  const fail = (): never => {
    throw new Error(`unexpected tsquery text at ${i}: ${text}`);
  };
  const operand = (): Node => {
    skip();
    if (text[i] === '!') {
      i++;
      return { op: 'not', arg: operand() };
    }
    if (text[i] === '(') {
      i++;
      const inner = or();
      skip();
      if (text[i] !== ')') fail();
      i++;
      return inner;
    }
    if (text[i] !== "'") fail();
    let lexeme = '';
    for (i++; ; i++) {
      if (i >= text.length) fail();
      const c = text[i]!;
      // PostgreSQL doubles quotes and backslashes inside a lexeme.
      if ((c === "'" || c === '\\') && text[i + 1] === c) {
        lexeme += c;
        i++;
      } else if (c === "'") {
        i++;
        break;
      } else lexeme += c;
    }
    let prefix = false;
    if (text[i] === ':') {
      for (i++; /[*A-D]/.test(text[i] ?? ''); i++) if (text[i] === '*') prefix = true;
    }
    return { op: 'term', term: { lexeme, prefix } };
  };
  // Precedence, tightest first: !, <-> / <N>, &, |. A phrase needs both sides, as & does.
  const phrase = (): Node => {
    let left = operand();
    for (;;) {
      skip();
      const m = /^<(-|\d+)>/.exec(text.slice(i));
      if (!m) return left;
      i += m[0].length;
      left = { op: 'phrase', left, right: operand(), distance: m[1] === '-' ? 1 : Number(m[1]) };
    }
  };
  const binary = (symbol: '&' | '|', next: () => Node, op: 'and' | 'or') => (): Node => {
    let left = next();
    for (;;) {
      skip();
      if (text[i] !== symbol) return left;
      i++;
      left = { op, left, right: next() };
    }
  };
  const and = binary('&', phrase, 'and');
  const or = binary('|', and, 'or');
  const root = or();
  skip();
  if (i !== text.length) fail();
  return root;
}

const key = (t: QueryTerm) => `${t.prefix ? '*' : '='}${t.lexeme}`;

/**
 * The positive terms of each conjunction of the query's disjunctive form (a negation requires
 * nothing). Null when the query is empty, when some conjunction requires no positive term (it
 * would match documents holding none of the query's words), or past MAX_CONJUNCTIONS.
 */
export function tsqueryConjunctions(text: string): QueryTerm[][] | null {
  if (!text.trim()) return null;
  const form = (node: Node): QueryTerm[][] | null => {
    switch (node.op) {
      case 'term':
        return [[node.term]];
      case 'not':
        return [[]];
      case 'or': {
        const left = form(node.left);
        const right = left && form(node.right);
        return left && right && left.length + right.length <= MAX_CONJUNCTIONS ? [...left, ...right] : null;
      }
      case 'and':
      case 'phrase': {
        const left = form(node.left);
        const right = left && form(node.right);
        if (!left || !right || left.length * right.length > MAX_CONJUNCTIONS) return null;
        return left.flatMap((l) => right.map((r) => [...new Map([...l, ...r].map((t) => [key(t), t])).values()]));
      }
    }
  };
  const conjunctions = form(parse(text));
  return conjunctions && conjunctions.every((c) => c.length > 0) ? conjunctions : null;
}

/**
 * The indexed words a term stands for, with how many listed skills hold each, and whether they
 * are all of them (a prefix may stand for more than are walked); null when unknown.
 */
export type TermWords = (term: QueryTerm) => { words: ReadonlyMap<string, number>; complete: boolean } | null;

export interface Drivers {
  /** The words whose postings hold every match (some of them, when not `complete`). */
  words: string[];
  /** Skills holding any of them: at least as many as match, when `complete`. */
  bound: number;
  complete: boolean;
}

/**
 * For each conjunction, the term whose words the fewest skills hold (a term whose words are all
 * known before one whose are not); their words together. Null when some conjunction has no
 * term whose words are known.
 */
export function chooseDrivers(conjunctions: QueryTerm[][], wordsOf: TermWords): Drivers | null {
  const chosen = new Map<string, number>();
  let complete = true;
  for (const conjunction of conjunctions) {
    let best: ReturnType<TermWords> = null;
    let least = Infinity;
    for (const term of conjunction) {
      const known = wordsOf(term);
      if (!known) continue;
      const cost = (known.complete ? 0 : Number.MAX_SAFE_INTEGER / 2) + sum(known.words.values());
      if (cost < least) [best, least] = [known, cost];
    }
    if (!best) return null;
    complete &&= best.complete;
    for (const [word, documents] of best.words) chosen.set(word, documents);
  }
  return { words: [...chosen.keys()], bound: sum(chosen.values()), complete };
}

/**
 * How many of `listed` skills a query likely matches, were its words independent: per
 * conjunction, the listed skills times each known term's share.
 */
export function likelyMatches(conjunctions: QueryTerm[][], wordsOf: TermWords, listed: number): number {
  let total = 0;
  for (const conjunction of conjunctions) {
    let share = 1;
    for (const term of conjunction) {
      const known = wordsOf(term);
      if (known) share *= Math.min(1, sum(known.words.values()) / Math.max(1, listed));
    }
    total += share * listed;
  }
  return total;
}

/**
 * Word pairs longer than this (in characters, both words and the space) are not indexed as
 * pairs: migration 1796500000000's `search_word_pairs` leaves them out, so a query never asks for one.
 */
export const MAX_WORD_PAIR_LENGTH = 129;

/**
 * A tsquery text of word pairs (`'slack reader'`) that every document matching `text` holds, or
 * null when its phrases give none. Each two whole words a phrase puts side by side (`<->`) make a
 * pair; a document holds the pair when the two words stand at neighbouring positions
 * (`search_word_pairs`, whose index answers it). A phrase's pairs are AND-ed, a disjunction's
 * sides OR-ed when both have pairs; negations require none. The pairs narrow what a phrase reads
 * from the table to the documents that can hold it (docs/search.md).
 */
export function phrasePairs(text: string): string | null {
  const quote = (word: string) => `'${word.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
  const edge = (node: Node, side: 'left' | 'right'): QueryTerm | null =>
    node.op === 'term' ? node.term : node.op === 'phrase' ? edge(node[side], side) : null;
  const required = (node: Node): string | null => {
    switch (node.op) {
      case 'term':
      case 'not':
        return null;
      case 'or': {
        const [left, right] = [required(node.left), required(node.right)];
        return left && right ? `( ${left} | ${right} )` : null;
      }
      case 'and':
      case 'phrase': {
        const pairs = [required(node.left), required(node.right)];
        if (node.op === 'phrase' && node.distance === 1) {
          const [a, b] = [edge(node.left, 'right'), edge(node.right, 'left')];
          const pair = a && b && !a.prefix && !b.prefix ? `${a.lexeme} ${b.lexeme}` : null;
          if (pair && [...pair].length <= MAX_WORD_PAIR_LENGTH) pairs.push(quote(pair));
        }
        const known = pairs.filter((p): p is string => p !== null);
        return known.length ? known.join(' & ') : null;
      }
    }
  };
  if (!/<(-|1)>/.test(text)) return null;
  try {
    return required(parse(text));
  } catch {
    return null;
  }
}

const sum = (xs: Iterable<number>) => [...xs].reduce((a, b) => a + b, 0);
