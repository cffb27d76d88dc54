export * from './install-record';
export * from './installed-files';
export * from './json-state-file';
export * from './skill-installer';
export * from './trust-state';
