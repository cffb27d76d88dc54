// Types of search-corpus.js, for the relevance test (test/search-relevance.e2e-spec.ts).

export interface CorpusSkill {
  namespace: string;
  name: string;
  description: string;
  category: string;
  certified: boolean;
}

export interface NameRule {
  all: string[];
  prefix?: boolean;
  none?: string[];
}

export interface CorpusQuery {
  label: string;
  q: string;
  /** What a misspelt query means. */
  word?: string;
  /** Which names match the query; none for a word no name holds. */
  names?: NameRule;
}

export interface SeedSql {
  searchVectorSql: string;
  listedSql: string;
  listedOrderSql: string;
  policyVersion: number;
}

export function seedCorpus(
  query: (sql: string, params?: unknown[]) => Promise<Array<Record<string, unknown>>>,
  total: number,
  sql: SeedSql,
  onBatch?: (seeded: number) => void,
): Promise<void>;
export function corpusSkills(total: number): Generator<CorpusSkill>;
export function nameMatches(name: string, rule: NameRule): boolean;
export function typoQueries(count?: number): Array<{ typo: string; word: string }>;
export function misspell(word: string, variant: number): string;
export const QUERIES: CorpusQuery[];
export const VOCABULARY: string[];
