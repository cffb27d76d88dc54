import { Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * Every word (lexeme) a search document has held, added by a trigger on `skills`: the typo
 * fallback finds the words nearest a misspelt one here (trigram index) and searches for them,
 * so a misspelling reaches descriptions and tools, not only names (skill-search.repository.ts).
 */
@Entity({ name: 'search_words' })
@Index('search_words_trgm_idx', { synchronize: false })
export class SearchWord {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  word: string;
}
