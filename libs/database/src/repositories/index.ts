import { CertificationRepository } from './certification.repository';
import { McpServerRepository } from './mcp-server.repository';
import { NamespaceRepository } from './namespace.repository';
import { PendingWorkRepository } from './pending-work.repository';
import { PublisherKeyRepository } from './publisher-key.repository';
import { PublisherTokenRepository } from './publisher-token.repository';
import { RevocationRepository } from './revocation.repository';
import { SigningKeyRepository } from './signing-key.repository';
import { SkillSearchRepository } from './skill-search.repository';
import { SkillRepository } from './skill.repository';
import { SubmissionRepository } from './submission.repository';
import { TransparencyLogRepository } from './transparency-log.repository';
import { WebPageRepository } from './web-page.repository';

export * from './certification.repository';
export * from './current-certification';
export * from './mcp-server.repository';
export * from './namespace.repository';
export * from './pending-work.repository';
export * from './publisher-key.repository';
export * from './publisher-token.repository';
export * from './revocation.repository';
export * from './signing-key.repository';
export * from './skill-search.repository';
export * from './skill.repository';
export * from './submission.repository';
export * from './transparency-log.repository';
export * from './web-page.repository';

/** Every repository, each over the one data source. */
export const REPOSITORIES = [
  CertificationRepository,
  McpServerRepository,
  NamespaceRepository,
  PendingWorkRepository,
  PublisherKeyRepository,
  PublisherTokenRepository,
  RevocationRepository,
  SigningKeyRepository,
  SkillRepository,
  SkillSearchRepository,
  SubmissionRepository,
  TransparencyLogRepository,
  WebPageRepository,
];
