export * from './search-cursor';
export * from './search-query';
