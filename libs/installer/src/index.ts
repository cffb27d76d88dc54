export * from './skill-installer';
export * from './trust-state';
