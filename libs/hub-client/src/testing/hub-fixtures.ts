/** Answers as the hub writes them (one per DTO), for the client's tests. */
import type {
  CertificateResponse,
  CertificationStatusResponse,
  Checkpoint,
  CreatedTokenResponse,
  KeysResponse,
  LogEntry,
  Proof,
  PublishResponse,
  ReadinessResponse,
  SkillListItem,
  SkillResponse,
  SkillVersionResponse,
  StatsResponse,
  SubmitSkillResponse,
  TokenResponse,
  ValidateSkillResponse,
} from '../hub-api';

const SHA = 'a'.repeat(64);

export const listItem = (name: string, version = '1.0.0'): SkillListItem => ({
  id: `kazma-hub://acme/${name}@${version}`,
  name,
  author: 'acme',
  description: `The ${name} skill.`,
  version,
  category: 'utilities',
  tags: ['demo'],
  certified: true,
  downloads: 3,
  capabilities: ['weather'],
  format: 'kazma',
  certification_level: 'standard',
  updated_at: '2025-10-21T07:28:00.000Z',
});

export const skillVersion: SkillVersionResponse = {
  id: 'kazma-hub://acme/weather@1.0.0',
  name: 'weather',
  author: 'acme',
  description: 'The weather skill.',
  version: '1.0.0',
  category: 'utilities',
  tags: ['demo'],
  certified: true,
  downloads: 3,
  author_display: 'Acme Labs',
  format: 'kazma',
  license: 'MIT',
  capabilities: ['weather'],
  permissions: ['network'],
  tools: [{ name: 'forecast', description: 'Tomorrow, in words.' }],
  mcp_servers: [
    {
      name: 'weather',
      transport: 'stdio',
      command: ['npx', 'weather-mcp'],
      url: null,
      packages: [{ registry: 'npm', name: 'weather-mcp', version: '1.2.3', source: 'command' }],
    },
  ],
  entry_point: 'main.py',
  manifest_path: 'skill_manifest.yaml',
  bundle_sha256: SHA,
  bundle_size: 512,
  files: [{ path: 'main.py', size: 20, sha256: SHA, mode: 0o644 }],
  status: 'active',
  status_message: null,
  published_at: '2025-10-21T07:28:00.000Z',
  certification: { status: 'certified', level: 'standard' },
  download_url: '/api/v1/skills/acme/weather/versions/1.0.0/bundle',
};

export const skill: SkillResponse = {
  id: 'kazma-hub://acme/weather',
  author: 'acme',
  name: 'weather',
  created_at: '2025-10-20T07:28:00.000Z',
  updated_at: '2025-10-21T07:28:00.000Z',
  latest: skillVersion,
  versions: [
    {
      version: '1.0.0',
      status: 'active',
      status_message: null,
      bundle_sha256: SHA,
      published_at: '2025-10-21T07:28:00.000Z',
      certification: { status: 'certified', level: 'standard' },
    },
  ],
};

export const published: PublishResponse = {
  id: 'kazma-hub://acme/weather@1.0.0',
  author: 'acme',
  name: 'weather',
  version: '1.0.0',
  format: 'kazma',
  bundle_sha256: SHA,
  certification: { status: 'pending', level: 'none' },
};

export const validated: ValidateSkillResponse = {
  valid: true,
  id: 'kazma-hub://acme/weather@1.0.0',
  author: 'acme',
  name: 'weather',
  version: '1.0.0',
  format: 'kazma',
  bundle_sha256: SHA,
  files: [{ path: 'main.py', size: 20, sha256: SHA, mode: 0o644 }],
  problems: [{ path: 'skill_manifest.yaml#license', message: 'no license', severity: 'warning' }],
  publishable: true,
};

export const readiness: ReadinessResponse = {
  status: 'ready',
  mode: 'embedded',
  database: { status: 'up' },
  redis: { status: 'up' },
  outbox_pending: 0,
  queue: 'bullmq',
};

export const stats: StatsResponse = { total_skills: 12, certified_count: 7, by_category: { utilities: 12 } };

export const certification: CertificationStatusResponse = {
  skill_id: 'kazma-hub://acme/weather@1.0.0',
  level: 'standard',
  issued_at: '2025-10-21T07:30:00.000Z',
  expires_at: '2026-10-21T07:30:00.000Z',
  requirements_met: { manifest_valid: true, no_secrets: true },
  status: 'certified',
  policy_version: 3,
  report: { findings: [] },
};

export const quarantined: CertificationStatusResponse = {
  skill_id: 'kazma-hub://acme/weather@1.0.0',
  level: 'none',
  issued_at: null,
  expires_at: null,
  requirements_met: {},
  status: 'quarantined',
  policy_version: null,
  report: null,
};

export const checkpoint: Checkpoint = {
  origin: 'skillhub.test/log',
  tree_size: 8,
  root_hash: SHA,
  note: 'skillhub.test/log\n8\nqq==\n\n— skillhub.test/log abc=\n',
};

export const envelope = {
  payloadType: 'application/vnd.skillhub.certificate+json',
  payload: 'e30=',
  signatures: [{ keyid: 'k1', sig: 'c2ln' }],
};

export const certificate: CertificateResponse = {
  envelope,
  key_id: 'k1',
  log_index: 5,
  issued_at: '2025-10-21T07:30:00.000Z',
  expires_at: '2026-10-21T07:30:00.000Z',
  checkpoint,
  inclusion_proof: [SHA, SHA],
};

export const keys: KeysResponse = {
  keys: [
    {
      keyid: 'k1',
      algorithm: 'ed25519',
      public_key_pem: '-----BEGIN PUBLIC KEY-----\nMCow\n-----END PUBLIC KEY-----\n',
      not_before: '2025-01-01T00:00:00.000Z',
      not_after: null,
    },
  ],
};

export const logEntry: LogEntry = {
  index: 5,
  kind: 'revocation',
  leaf_data: '{"type":"revocation"}',
  leaf_hash: SHA,
  summary: { skill: 'acme/weather', version: '1.0.0', reason: 'leaks keys' },
};

export const proof: Proof = { hashes: [SHA], tree_size: 8, root_hash: SHA };

export const submission: SubmitSkillResponse = {
  submission_id: '7d9f3c52-5b0e-4c1a-9a55-0c7f6b1e2d3a',
  skill_id: 'kazma-hub://acme/weather@1.0.0',
  status: 'quarantined',
  message: 'Quarantined until the owner of acme claims it.',
  expires_at: '2025-11-21T07:28:00.000Z',
  claim_url: '/api/v1/submissions/7d9f3c52-5b0e-4c1a-9a55-0c7f6b1e2d3a/claim',
};

export const token: TokenResponse = {
  id: '0b7e6a1c-2d3f-4e5a-8b9c-0d1e2f3a4b5c',
  name: 'ci',
  prefix: 'shp_Ab3dE7gH',
  scopes: ['publish'],
  namespace: 'acme',
  publisher: 'acme',
  expires_at: '2026-01-19T07:28:00.000Z',
  revoked_at: null,
  last_used_at: null,
  created_at: '2025-10-21T07:28:00.000Z',
};

export const createdToken: CreatedTokenResponse = { ...token, token: 'shp_Ab3dE7gHnewSecretValue' };
