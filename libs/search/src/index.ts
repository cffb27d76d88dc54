export * from './search-cursor';
export * from './search-query';
export * from './query-drivers';
export * from './paging';
