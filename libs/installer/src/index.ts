export * from './install-record';
export * from './installed-files';
export * from './skill-installer';
export * from './trust-state';
