export * from './certification.processor';
export * from './certifier.module';
export * from './certify-skill.service';
export * from './encryption-key';
export * from './pending-sweeper.service';
export * from './revocations.service';
export * from './signing-key.service';
export * from './transparency-log.service';
