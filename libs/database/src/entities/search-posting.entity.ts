import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * One word of a listed skill's search document, kept by a trigger on `skills`
 * (migration 1796400000000-search-postings): the primary key read backwards walks a word's
 * skills best first, so a search for a common word reads its top few hundred instead of every
 * match (docs/search.md).
 */
@Entity({ name: 'search_postings' })
@Index('search_postings_name_idx', { synchronize: false })
export class SearchPosting {
  /** A lexeme of the document (at most 64 characters; longer ones are found through the full-text index only). */
  @PrimaryColumn({ type: 'varchar', length: 64 })
  word: string;

  /** The skill's static score rounded to a quarter (`search_posting_score`), so download batches seldom move it. */
  @PrimaryColumn({ type: 'real' })
  score: number;

  @PrimaryColumn({ name: 'skill_id', type: 'uuid' })
  skillId: string;

  /** Whether the word is in the skill's name (weight A). */
  @Column({ type: 'boolean' })
  name: boolean;
}
