/** Every migration, in order. Listed explicitly so the same list works from TypeScript and from dist/. */
import { Init1795973621262 } from './1795973621262-init';
import { Discovery1795975321266 } from './1795975321266-discovery';
import { Certification1795978098213 } from './1795978098213-certification';
import { PublisherKeys1795983259538 } from './1795983259538-publisher-keys';
import { LogFrontier1795984665369 } from './1795984665369-log-frontier';
import { LogNodes1795985052280 } from './1795985052280-log-nodes';
import { TokenParents1796126991951 } from './1796126991951-token-parents';
import { SearchScale1796300000000 } from './1796300000000-search-scale';
import { SearchPostings1796400000000 } from './1796400000000-search-postings';
import { SearchPhrases1796500000000 } from './1796500000000-search-phrases';
import { SearchTypoOrder1796600000000 } from './1796600000000-search-typo-order';
import { CertificationChanges1796700000000 } from './1796700000000-certification-changes';

export const MIGRATIONS = [
  Init1795973621262,
  Discovery1795975321266,
  Certification1795978098213,
  PublisherKeys1795983259538,
  LogFrontier1795984665369,
  LogNodes1795985052280,
  TokenParents1796126991951,
  SearchScale1796300000000,
  SearchPostings1796400000000,
  SearchPhrases1796500000000,
  SearchTypoOrder1796600000000,
  CertificationChanges1796700000000,
];
