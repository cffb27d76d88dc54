export * from './data-source';
export * from './embedded-database';
export * from './entities';
