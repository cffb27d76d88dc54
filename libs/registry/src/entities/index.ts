import { Blob } from './blob.entity';
import { Certification } from './certification.entity';
import { Namespace } from './namespace.entity';
import { OutboxMessage } from './outbox-message.entity';
import { Publisher } from './publisher.entity';
import { PublisherToken } from './publisher-token.entity';
import { Skill } from './skill.entity';
import { SkillVersion } from './skill-version.entity';
import { Submission } from './submission.entity';

export * from './blob.entity';
export * from './certification.entity';
export * from './namespace.entity';
export * from './outbox-message.entity';
export * from './publisher.entity';
export * from './publisher-token.entity';
export * from './skill.entity';
export * from './skill-version.entity';
export * from './submission.entity';

export const ENTITIES = [
  Publisher,
  Namespace,
  PublisherToken,
  Skill,
  Blob,
  SkillVersion,
  Certification,
  Submission,
  OutboxMessage,
];
export * from './json-document';
