export * from './encryption-key';
export * from './revocations.service';
export * from './signing-key.service';
export * from './transparency-log.service';
export * from './trust.module';
