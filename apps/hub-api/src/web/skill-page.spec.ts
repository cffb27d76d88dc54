import { certifiedReport } from '@skillhub/database/testing';
import type { CertificationStatusDto } from '../certifications/dto/certification-status.response.dto';
import type { SkillResponseDto, SkillVersionResponseDto } from '../skills/dto/skill-version.response.dto';
import { skillPage, type SkillPageData } from './skill-page';

const NOW = new Date('2026-12-01T12:00:00Z');

function data(
  certification: Partial<CertificationStatusDto>,
  version: Partial<SkillVersionResponseDto> = {},
): SkillPageData {
  const v = {
    id: 'kazma-hub://acme/weather@1.0.0',
    name: 'weather',
    author: 'acme',
    description: 'Weather.',
    version: '1.0.0',
    category: null,
    tags: [],
    certified: false,
    downloads: 0,
    author_display: 'Acme',
    format: 'kazma',
    license: 'MIT',
    capabilities: [],
    permissions: [],
    tools: [],
    mcp_servers: [],
    entry_point: 'main.py',
    manifest_path: 'skill_manifest.yaml',
    bundle_sha256: 'a'.repeat(64),
    bundle_size: 2048,
    files: [{ path: 'main.py', size: 10, sha256: 'b'.repeat(64), mode: 420 }],
    status: 'active',
    status_message: null,
    published_at: '2026-11-28T12:00:00.000Z',
    certification: { status: 'pending', level: 'none' },
    download_url: '/api/v1/skills/acme/weather/versions/1.0.0/bundle',
    ...version,
  } as SkillVersionResponseDto;
  const skill = {
    id: 'kazma-hub://acme/weather',
    author: 'acme',
    name: 'weather',
    created_at: v.published_at,
    updated_at: v.published_at,
    latest: v,
    versions: [
      {
        version: '1.0.0',
        status: v.status,
        status_message: null,
        bundle_sha256: v.bundle_sha256,
        published_at: v.published_at,
        certification: v.certification,
      },
    ],
  } as SkillResponseDto;
  return {
    skill,
    version: v,
    certification: {
      skill_id: v.id,
      level: 'none',
      issued_at: null,
      expires_at: null,
      requirements_met: {},
      status: 'pending',
      report: null,
      ...certification,
    },
    certificate: null,
    logEntry: null,
    extras: { homepage: null, repository: null, readme: null, revocation: null },
    origin: 'https://hub.example',
    now: NOW,
  };
}

const text = (d: SkillPageData) => skillPage(d).replace(/\s+/g, ' ');

describe('skillPage lifecycle', () => {
  it('a pending version says so and offers no install command', () => {
    const page = text(data({ status: 'pending' }));
    expect(page).toContain('id="banner-pending"');
    expect(page).toContain('This version cannot be installed: the certifier has not judged it yet.');
    expect(page).not.toContain('skillhub install');
    expect(page).toContain(
      '[![Skill Hub: acme/weather](https://hub.example/api/v1/skills/acme/weather/badge.svg)](https://hub.example/skills/acme/weather)',
    );
  });

  it('a failed version is not installable, with a banner pointing at its report', () => {
    const page = text(data({ status: 'failed' }));
    expect(page).toContain('id="banner-failed"');
    expect(page).not.toContain('skillhub install');
  });

  it('a certified version offers the command, the runtime config and the MCP client config', () => {
    const page = text(data({ status: 'certified', level: 'basic' }, { permissions: ['network_outbound'] }));
    expect(page).not.toContain('class="banner');
    expect(page).toContain('skillhub install acme/weather@1.0.0');
    expect(page).toContain('grants: acme/weather: network: true');
    expect(page).toContain('KAZMA_HUB_URL=https://hub.example npm run start:agent-runtime');
    expect(page).toMatch(/<time datetime="2026-11-28T12:00:00.000Z" title="2026-11-28 12:00 UTC">3 days ago<\/time>/);
  });
});

describe('skillPage detonation', () => {
  it('shows what ran in the sandbox and what it tried, with the traced call', () => {
    const report = certifiedReport({
      detonation: {
        ran: [{ what: 'scripts/sync.py', file: 'scripts/sync.py', line: null, exit: 0, timedOut: false }],
        events: [
          {
            kind: 'honeytoken-read',
            detail: '/home/sandbox/.ssh/id_rsa',
            program: 'scripts/sync.py',
            evidence: 'openat(AT_FDCWD</srv/skill>, "/home/sandbox/.ssh/id_rsa", O_RDONLY) = 3',
          },
        ],
        notRun: [{ what: 'SKILL.md:12 pip install requests', reason: 'a package install' }],
      },
    });
    const page = text(data({ status: 'failed', report }));
    expect(page).toContain('<h2 id="detonation">Detonation</h2>');
    expect(page).toContain('<code>scripts/sync.py</code>');
    expect(page).toContain('exit code 0');
    expect(page).toContain('<strong>read a honeytoken</strong>: <code>/home/sandbox/.ssh/id_rsa</code>');
    expect(page).toContain('openat(AT_FDCWD&lt;/srv/skill&gt;, &quot;/home/sandbox/.ssh/id_rsa&quot;, O_RDONLY) = 3');
    expect(page).toContain('<code>SKILL.md:12 pip install requests</code>: a package install');
  });

  it('says when a version was not detonated, and that nothing was tried when nothing was', () => {
    expect(text(data({ status: 'certified', report: certifiedReport({ detonation: null }) }))).toContain(
      'Not detonated: only the static checks judged what this skill runs.',
    );
    const clean = certifiedReport({
      detonation: {
        ran: [{ what: 'run.sh', file: 'run.sh', line: null, exit: 0, timedOut: false }],
        events: [],
        notRun: [],
      },
    });
    expect(text(data({ status: 'certified', report: clean }))).toContain('Nothing: no honeytoken read');
  });
});
