import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * Every word (lexeme) a search document has held, with how many listed skills hold it now, kept
 * by a trigger on `skills`. A search reads the counts to find its rarest word before any
 * posting (docs/search.md); the typo fallback finds the words nearest a misspelt one here
 * (trigram index), so a misspelling reaches descriptions and tools, not only names.
 */
@Entity({ name: 'search_words' })
@Index('search_words_trgm_idx', { synchronize: false })
@Index('search_words_prefix_idx', { synchronize: false })
export class SearchWord {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  word: string;

  /** Listed skills whose document holds the word. */
  @Column({ type: 'integer', default: 0 })
  documents: number;
}
