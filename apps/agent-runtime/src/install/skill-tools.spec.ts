import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { CertificateStatement, CertifiedServer } from '@skillhub/signing';
import { parseSkill } from '@skillhub/skill-formats';
import { stringify } from 'yaml';
import type { SkillGrant } from '../config/runtime-config';
import { skillExposure } from './skill-exposure';
import type { VerifiedSkill } from './verified-skill';

const INTEGRITY = `sha512-${Buffer.alloc(64, 2).toString('base64')}`;
const FILESYSTEM = '@modelcontextprotocol/server-filesystem@2026.8.31';

let root: string;
beforeAll(() => (root = mkdtempSync(join(tmpdir(), 'skill-tools-'))));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A SwarmKit skill written to its own installed folder and parsed as the hub parsed it. */
function installed(
  name: string,
  skill: Record<string, unknown>,
  server: Record<string, unknown> | null = { id: 'files', transport: 'stdio', command: ['npx', '-y', FILESYSTEM, '.'] },
): VerifiedSkill {
  const folder = join(root, name);
  const files: Record<string, string> = {
    [`${name}.yaml`]: stringify({
      apiVersion: 'swarmkit/v1',
      kind: 'Skill',
      metadata: { id: name, name: `The ${name} skill`, description: `What ${name} does, in a sentence.` },
      category: 'capability',
      provenance: { authored_by: 'human', version: '1.0.0' },
      ...skill,
    }),
  };
  if (server) {
    files['workspace.yaml'] = stringify({
      apiVersion: 'swarmkit/v1',
      kind: 'Workspace',
      metadata: { id: 'ws', name: 'Workspace' },
      mcp_servers: [server],
    });
  }
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(folder, path)), { recursive: true });
    writeFileSync(join(folder, path), content);
  }
  const parsed = parseSkill(
    Object.entries(files).map(([path, content]) => ({ path, content: Buffer.from(content) })),
    { namespace: 'acme', version: '1.0.0', folderName: name },
  );
  if (!parsed.skill) throw new Error(JSON.stringify(parsed.problems));
  const certified: CertifiedServer[] = server
    ? [
        {
          name: 'files',
          transport: 'stdio',
          launch: 'npm',
          argv: ['npx', '-y', FILESYSTEM, '.'],
          url: null,
          package: {
            registry: 'npm',
            name: '@modelcontextprotocol/server-filesystem',
            version: '2026.8.31',
            integrity: INTEGRITY,
          },
          file: null,
          env: {},
          cwd: null,
          tools: { read_text_file: 'a'.repeat(64), write_file: 'b'.repeat(64) },
        },
      ]
    : [];
  return {
    ref: `acme/${name}`,
    version: '1.0.0',
    path: folder,
    skill: parsed.skill,
    statement: { servers: certified, permissions: [], codeCapabilities: [] } as unknown as CertificateStatement,
  };
}

const expose = (skill: VerifiedSkill, grants: Record<string, Partial<SkillGrant>> = {}) =>
  skillExposure(skill, {
    grants: Object.fromEntries(
      Object.entries(grants).map(([ref, grant]) => [ref, { network: false, secrets: [], scopes: [], ...grant }]),
    ),
    secrets: new Map(),
    callTimeoutMs: 60_000,
  });

describe('skillExposure of a SwarmKit mcp_tool skill', () => {
  it('offers exactly its one tool, with its arguments preset and its constraints, and no whole server', () => {
    const exposure = expose(
      installed('read-notes', {
        implementation: { type: 'mcp_tool', server: 'files', tool: 'read_text_file', arguments: { path: 'notes.txt' } },
        constraints: { timeout_seconds: 2, retry: { attempts: 1, backoff: 'none' }, on_failure: 'fallback' },
      }),
    );

    expect(exposure.offersServers).toBe(false);
    expect(exposure.servers.map((server) => server.name)).toEqual(['files']);
    expect(exposure.tools).toEqual([
      expect.objectContaining({
        certifiedAs: 'acme/read-notes@1.0.0',
        name: 'read-notes',
        title: 'The read-notes skill',
        server: 'files',
        ownServer: true,
        tool: 'read_text_file',
        governance: { tiers: [], effect: null, presets: { path: 'notes.txt' } },
        call: { timeoutMs: 2_000, timeoutFromSkill: true, retries: 1, backoff: 'none', onFailure: 'fallback' },
        outputs: null,
      }),
    ]);
  });

  it('takes the tier and effects its workspace declares for the server and tool, and the operator’s tier', () => {
    const skill = installed(
      'write-notes',
      { implementation: { type: 'mcp_tool', server: 'files', tool: 'write_file' } },
      {
        id: 'files',
        transport: 'stdio',
        command: ['npx', '-y', FILESYSTEM, '.'],
        permission: 'cautious',
        permission_overrides: { write_file: 'readonly' },
        effects: { write_file: 'write', read_text_file: 'read' },
      },
    );

    const [tool] = expose(skill, { 'acme/write-notes': { permission: 'strict' } }).tools;

    expect(tool!.governance).toMatchObject({
      effect: 'write',
      tiers: [
        { tier: 'strict', setBy: 'operator', where: "the runtime config's grants for acme/write-notes" },
        { tier: 'readonly', setBy: 'skill', where: 'workspace.yaml of acme/write-notes@1.0.0 (server files)' },
      ],
    });
  });

  it('refuses the tool when its workspace gives a tier SwarmKit does not have', () => {
    const exposure = expose(
      installed(
        'odd-tier',
        { implementation: { type: 'mcp_tool', server: 'files', tool: 'read_text_file' } },
        { id: 'files', transport: 'stdio', command: ['npx', '-y', FILESYSTEM, '.'], permission: 'wide-open' },
      ),
    );

    expect(exposure.tools).toEqual([]);
    expect(exposure.refusedTools).toEqual([
      {
        tool: 'read_text_file',
        reason:
          'its workspace file workspace.yaml gives the server files the permission "wide-open", which is not one of open, cautious, strict, readonly',
      },
    ]);
  });

  it('checks a decision skill’s results against its outputs', () => {
    const [tool] = expose(
      installed('review', {
        category: 'decision',
        implementation: { type: 'mcp_tool', server: 'files', tool: 'read_text_file' },
        outputs: {
          type: 'object',
          properties: { verdict: { enum: ['pass', 'fail'] }, reasoning: { type: 'string' } },
          required: ['verdict', 'reasoning'],
        },
      }),
    ).tools;

    expect(tool!.outputs!({ verdict: 'pass', reasoning: 'fine' })).toEqual([]);
    expect(tool!.outputs!({ verdict: 'maybe', reasoning: 'hm' })).toEqual([
      '/verdict: must be equal to one of the allowed values ("pass", "fail")',
    ]);
  });

  it('offers nothing, and starts nothing, until every required scope is granted', () => {
    const skill = installed('search-repo', {
      implementation: { type: 'mcp_tool', server: 'files', tool: 'read_text_file' },
      iam: { required_scopes: ['repo:read', 'knowledge:read'] },
    });

    const withheld = expose(skill, { 'acme/search-repo': { scopes: ['knowledge:read'] } });
    const granted = expose(skill, { 'acme/search-repo': { scopes: ['repo:*', 'knowledge:read'] } });

    expect(withheld).toMatchObject({ servers: [], tools: [], prompts: [] });
    expect(withheld.withheld).toBe(
      'its iam.required_scopes repo:read is not granted, so it offers nothing: grant it in the runtime config (grants: { "acme/search-repo": { scopes: [repo:read] } })',
    );
    expect(granted.withheld).toBeNull();
    expect(granted.tools).toHaveLength(1);
  });

  it('names a server its bundle does not define as one the runtime config must run', () => {
    const exposure = expose(
      installed(
        'web',
        { implementation: { type: 'mcp_tool', server: 'brave-search', tool: 'brave_web_search' } },
        null,
      ),
    );

    expect(exposure.servers).toEqual([]);
    expect(exposure.tools).toEqual([expect.objectContaining({ server: 'brave-search', ownServer: false })]);
  });
});
