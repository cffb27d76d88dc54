/** Every migration, in order. Listed explicitly so the same list works from TypeScript and from dist/. */
import { Init1795973621262 } from './1795973621262-init';
import { Discovery1795975321266 } from './1795975321266-discovery';

export const MIGRATIONS = [Init1795973621262, Discovery1795975321266];
