import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * How many skills list a version, per category and certifying policy, kept by triggers on
 * `skills` in the transaction of each write (skill-search.repository.ts): stats and list totals read these
 * few rows instead of counting the catalogue.
 */
@Entity({ name: 'listing_counters' })
export class ListingCounter {
  /** The listed version's category; '' for none. */
  @PrimaryColumn({ type: 'varchar', length: 64 })
  category: string;

  /** The policy under which the listed version is certified; 0 when it is not. */
  @PrimaryColumn({ name: 'certified_policy', type: 'integer' })
  certifiedPolicy: number;

  @Column({ type: 'integer', default: 0 })
  skills: number;
}
