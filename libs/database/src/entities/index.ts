import { Blob } from './blob.entity';
import { Certificate } from './certificate.entity';
import { Certification } from './certification.entity';
import { ListingCounter } from './listing-counter.entity';
import { LogCheckpoint } from './log-checkpoint.entity';
import { LogEntry } from './log-entry.entity';
import { LogNode } from './log-node.entity';
import { Namespace } from './namespace.entity';
import { OutboxMessage } from './outbox-message.entity';
import { Publisher } from './publisher.entity';
import { PublisherKey } from './publisher-key.entity';
import { PublisherToken } from './publisher-token.entity';
import { Revocation } from './revocation.entity';
import { SearchPosting } from './search-posting.entity';
import { SearchWord } from './search-word.entity';
import { SigningKey } from './signing-key.entity';
import { Skill } from './skill.entity';
import { SkillVersion } from './skill-version.entity';
import { Submission } from './submission.entity';

export * from './blob.entity';
export * from './certificate.entity';
export * from './json-document';
export * from './certification.entity';
export * from './listing-counter.entity';
export * from './log-checkpoint.entity';
export * from './log-entry.entity';
export * from './log-node.entity';
export * from './namespace.entity';
export * from './outbox-message.entity';
export * from './publisher.entity';
export * from './publisher-key.entity';
export * from './publisher-token.entity';
export * from './revocation.entity';
export * from './search-posting.entity';
export * from './search-word.entity';
export * from './signing-key.entity';
export * from './skill.entity';
export * from './skill-version.entity';
export * from './submission.entity';

export const ENTITIES = [
  Publisher,
  Namespace,
  PublisherToken,
  PublisherKey,
  Skill,
  Blob,
  SkillVersion,
  Certification,
  Certificate,
  Revocation,
  SigningKey,
  LogEntry,
  LogNode,
  LogCheckpoint,
  Submission,
  OutboxMessage,
  ListingCounter,
  SearchWord,
  SearchPosting,
];
