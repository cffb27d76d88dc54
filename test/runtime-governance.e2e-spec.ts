/**
 * The skill is the unit of governance in the runtime. A hub certifies SwarmKit skills (their
 * servers real npm packages and a server shipped in the bundle, served by a local npm as real
 * tarballs, the live probe on); then the agent-runtime runs as its own process (from dist/, every
 * skill server in the sandbox) and is driven over its stdio gateway by an SDK client that can
 * answer approval questions, its log read from stderr.
 */
import { execSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { type CallToolResult, ElicitRequestSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { stringify } from 'yaml';
import { writeBundle } from '@skillhub/bundle';
import { HubClient } from '@skillhub/hub-client';
import { FakeRegistries, packedRegistryFixtures } from '@skillhub/package-probe/testing';
import { uniqueName } from '@skillhub/testing';
import { REAL_SERVERS } from './fixtures/certification-corpus/builders';
import { startTestHub, type TestHub } from './support/test-hub';
import { untilEverySkillLoaded } from './support/runtime-log';

const ROOT = join(__dirname, '..');
const RUNTIME_MAIN = join(ROOT, 'dist/apps/agent-runtime/src/main.js');

/**
 * An MCP server shipped in a skill's bundle, answering tool calls as the cases need: a report
 * that takes 3 s, a count whose first call fails, and a verdict outside the decision's schema.
 */
const TOOLBOX_SERVER = `#!/usr/bin/env node
'use strict';
const tools = [
  { name: 'get_report', description: 'Builds the weekly report, which takes a few seconds.', inputSchema: { type: 'object', properties: {} } },
  { name: 'get_note_count', description: 'Counts the notes; the first call fails while the index warms up.', inputSchema: { type: 'object', properties: {} } },
  { name: 'get_verdict', description: 'Judges the change and answers with its verdict as JSON.', inputSchema: { type: 'object', properties: {} } },
];
const answers = {
  get_report: (reply) => setTimeout(() => reply({ content: [{ type: 'text', text: 'The weekly report.' }] }), 3000),
  get_note_count: (reply) => {
    counted += 1;
    reply(counted === 1 ? { isError: true, content: [{ type: 'text', text: 'The index is warming up.' }] } : { content: [{ type: 'text', text: 'There are 3 notes.' }] });
  },
  get_verdict: (reply) => reply({ content: [{ type: 'text', text: JSON.stringify({ verdict: 'maybe', reasoning: 'Hard to say.' }) }] }),
};
let counted = 0;
const send = (message) => process.stdout.write(JSON.stringify(Object.assign({ jsonrpc: '2.0' }, message)) + '\\n');
let buffered = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  buffered += chunk;
  let newline;
  while ((newline = buffered.indexOf('\\n')) >= 0) {
    const line = buffered.slice(0, newline);
    buffered = buffered.slice(newline + 1);
    let message;
    try { message = JSON.parse(line); } catch { continue; }
    if (message.id !== undefined) answer(message);
  }
});
function answer(message) {
  const reply = (result) => send({ id: message.id, result });
  if (message.method === 'initialize') {
    return reply({ protocolVersion: message.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'toolbox', version: '1.0.0' } });
  }
  if (message.method === 'ping') return reply({});
  if (message.method === 'tools/list') return reply({ tools });
  const tool = message.method === 'tools/call' && answers[message.params.name];
  if (tool) return tool(reply);
  send({ id: message.id, error: { code: -32601, message: 'Method not found: ' + message.method } });
}
`;

const NOTES = 'Buy milk.\nCall the plumber.\n';
const text = (result: CallToolResult): string =>
  result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');

interface RunningRuntime {
  client: Client;
  tools: Tool[];
  /** The approval questions it was asked, in order. */
  asked: string[];
  /** How it answers the next question. */
  answer: 'accept' | 'decline';
  /** Everything it logged so far, without colours. */
  log(): string;
  close(): Promise<void>;
}

describe('the runtime governs each skill as its manifest says', () => {
  const ns = uniqueName('gov');
  let dir: string;
  let registries: FakeRegistries;
  let hub: TestHub;
  let client: HubClient;
  let runtime: RunningRuntime;

  /** A SwarmKit skill's bundle: its skill file, and a workspace when it has servers. */
  const swarmkit = (
    id: string,
    skill: Record<string, unknown>,
    servers: Array<Record<string, unknown>> = [],
    files: Record<string, string> = {},
  ): Buffer => {
    const all: Record<string, string> = {
      [`${id}.yaml`]: stringify({
        apiVersion: 'swarmkit/v1',
        kind: 'Skill',
        metadata: { id, name: `The ${id} skill`, description: `The ${id} skill, for the governance test.` },
        category: 'capability',
        provenance: { authored_by: 'human', version: '1.0.0' },
        ...skill,
      }),
      ...files,
    };
    if (servers.length > 0) {
      all['workspace.yaml'] = stringify({
        apiVersion: 'swarmkit/v1',
        kind: 'Workspace',
        metadata: { id: `${id}-workspace`, name: 'Workspace' },
        mcp_servers: servers,
      });
    }
    return writeBundle(
      Object.entries(all).map(([path, content]) => ({ path, content })),
      { rootFolder: id },
    );
  };
  /** server-filesystem on the skill's data folder, which SwarmKit's workspace declares read-only. */
  const notesServer = {
    id: 'files',
    transport: 'stdio',
    command: ['npx', '-y', REAL_SERVERS.filesystem, '.'],
    cwd: 'data',
    permission: 'readonly',
    effects: { read_text_file: 'read', write_file: 'write' },
  };
  const toolbox = { id: 'toolbox', transport: 'stdio', command: ['node', 'server/index.js'] };
  const toolboxSkill = (id: string, tool: string, more: Record<string, unknown>): Buffer =>
    swarmkit(id, { implementation: { type: 'mcp_tool', server: 'toolbox', tool }, ...more }, [toolbox], {
      'server/index.js': TOOLBOX_SERVER,
    });

  const certification = async (name: string): Promise<string> => {
    for (let i = 0; i < 1200; i++) {
      const { status } = await client.certification(ns, name, '1.0.0');
      if (status !== 'pending') return status;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`${name} is still pending`);
  };

  /** The runtime as its own process, serving its gateway on stdio; ready once the gateway answers. */
  const startRuntime = async (config: Record<string, unknown>): Promise<RunningRuntime> => {
    const file = join(dir, 'runtime.yaml');
    writeFileSync(
      file,
      stringify({
        hub: hub.baseUrl,
        state_dir: join(dir, 'runtime-state'),
        npm_registry: registries.npm.baseUrl,
        gateway: { stdio: true },
        ...config,
      }),
    );
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [RUNTIME_MAIN],
      env: {
        ...(process.env as Record<string, string>),
        NO_COLOR: '1',
        RUNTIME_CONFIG: file,
        KAZMA_HUB_URL: hub.baseUrl,
        HUB_LOG_ORIGIN: hub.config.HUB_LOG_ORIGIN,
      },
      stderr: 'pipe',
    });
    let logged = '';
    transport.stderr?.on('data', (chunk: Buffer) => (logged += chunk.toString('utf8')));
    const mcp = new Client(
      { name: 'runtime-governance-test', version: '1.0.0' },
      { capabilities: { elicitation: {} } },
    );
    const running: RunningRuntime = {
      client: mcp,
      tools: [],
      asked: [],
      answer: 'decline',
      // eslint-disable-next-line no-control-regex
      log: () => logged.replace(/\u001b\[[0-9;]*m/g, ''),
      close: () => mcp.close(),
    };
    mcp.setRequestHandler(ElicitRequestSchema, (request) => {
      running.asked.push(String(request.params.message));
      return running.answer === 'accept' ? { action: 'accept', content: { approve: true } } : { action: 'decline' };
    });
    await mcp.connect(transport, { timeout: 120_000 });
    await untilEverySkillLoaded(running.log);
    running.tools = (await mcp.listTools()).tools;
    return running;
  };

  const call = async (name: string, args: Record<string, unknown> = {}) =>
    (await runtime.client.callTool({ name, arguments: args })) as CallToolResult;
  const listed = (): string[] => runtime.tools.map((tool) => tool.name);

  beforeAll(async () => {
    if (!existsSync(RUNTIME_MAIN)) execSync('npm run build', { cwd: ROOT, stdio: 'ignore' });
    dir = mkdtempSync(join(tmpdir(), 'skillhub-runtime-governance-'));
    registries = await FakeRegistries.start(
      packedRegistryFixtures({ fromNodeModules: ['@modelcontextprotocol/server-filesystem'], synthetic: [] }),
    );
    hub = await startTestHub({
      worker: true,
      env: {
        PUBLISH_RATE_LIMIT_PER_MINUTE: '1000',
        NPM_REGISTRY_URL: registries.npm.baseUrl,
        PYPI_REGISTRY_URL: registries.pypi.baseUrl,
        LIVE_PROBE: '1',
        LIVE_PROBE_TIMEOUT_MS: '30000',
        PACKAGE_CACHE_DIR: join(dir, 'hub-packages'),
      },
    });
    client = new HubClient({ baseUrl: hub.baseUrl, token: await hub.token(ns, ['publish', 'manage']) });

    const notesFile = { 'data/notes.txt': NOTES };
    const bundles = [
      swarmkit(
        'read-notes',
        {
          implementation: {
            type: 'mcp_tool',
            server: 'files',
            tool: 'read_text_file',
            arguments: { path: '/srv/bundle/data/notes.txt' },
          },
          iam: { required_scopes: ['notes:read'] },
        },
        [notesServer],
        notesFile,
      ),
      swarmkit(
        'write-notes',
        { implementation: { type: 'mcp_tool', server: 'files', tool: 'write_file' } },
        [notesServer],
        notesFile,
      ),
      swarmkit(
        'private-notes',
        {
          implementation: { type: 'mcp_tool', server: 'files', tool: 'read_text_file' },
          iam: { required_scopes: ['notes:private'] },
        },
        [notesServer],
        notesFile,
      ),
      toolboxSkill('slow-report', 'get_report', { constraints: { timeout_seconds: 1 } }),
      toolboxSkill('note-count', 'get_note_count', { constraints: { retry: { attempts: 1, backoff: 'none' } } }),
      toolboxSkill('judge', 'get_verdict', {
        category: 'decision',
        outputs: {
          type: 'object',
          properties: { verdict: { type: 'string', enum: ['pass', 'fail'] }, reasoning: { type: 'string' } },
          required: ['verdict', 'reasoning'],
        },
        constraints: { on_failure: 'escalate_to_human' },
      }),
      swarmkit('analyze', {
        implementation: { type: 'llm_prompt', prompt: 'Sort the complaint into one of: late, damaged, wrong item.' },
        inputs: {
          type: 'object',
          properties: { complaint: { type: 'string', description: 'The complaint, as the customer wrote it.' } },
          required: ['complaint'],
        },
      }),
      swarmkit('triage', { implementation: { type: 'composed', composes: ['analyze', 'read-notes'] } }),
      swarmkit('lost-triage', {
        implementation: { type: 'composed', composes: ['analyze', 'not-installed'], strategy: 'parallel-consensus' },
      }),
    ];
    for (const bundle of bundles) await client.publish(bundle, { namespace: ns });
    for (const name of [
      'read-notes',
      'write-notes',
      'private-notes',
      'slow-report',
      'note-count',
      'judge',
      'analyze',
      'triage',
      'lost-triage',
    ]) {
      expect([name, await certification(name)]).toEqual([name, 'certified']);
    }

    runtime = await startRuntime({
      skills: [
        'triage',
        'lost-triage',
        'read-notes',
        'write-notes',
        'private-notes',
        'slow-report',
        'note-count',
        'judge',
        'analyze',
      ].map((name) => `${ns}/${name}@^1.0.0`),
      grants: { [`${ns}/read-notes`]: { scopes: ['notes:read'] } },
    });
  }, 600_000);

  afterAll(async () => {
    await runtime?.close().catch(() => undefined);
    await hub?.close();
    await registries?.npm.close();
    await registries?.pypi.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("offers an mcp_tool skill's one tool under the skill's name, never the rest of its server, and no name twice", () => {
    const names = listed();

    expect(names.filter((name) => name.includes('_notes__') || name.includes('-notes__')).sort()).toEqual([
      'mcp__read-notes__read_text_file',
      'mcp__write-notes__write_file',
    ]);
    expect(names.some((name) => name.startsWith('mcp__files'))).toBe(false);
    expect(new Set(names).size).toBe(names.length);
    expect(runtime.log()).toContain(
      `${ns}/read-notes@1.0.0: offers mcp__read-notes__read_text_file on files, tier readonly (set by workspace.yaml of ${ns}/read-notes@1.0.0 (server files))`,
    );
  });

  it('presets the arguments the skill fixes: the client does not see them, and cannot change them', async () => {
    const tool = runtime.tools.find((t) => t.name === 'mcp__read-notes__read_text_file')!;
    const changed = await call('mcp__read-notes__read_text_file', { path: '/etc/passwd' });

    expect(Object.keys(tool.inputSchema.properties ?? {})).not.toContain('path');
    expect(tool.inputSchema.required ?? []).not.toContain('path');
    expect(text(await call('mcp__read-notes__read_text_file'))).toBe(NOTES);
    expect(changed.isError).toBe(true);
    expect(text(changed)).toContain('arguments: "path": preset by the skill, so a call cannot give another value');
  });

  it('never lets a readonly skill reach a write tool, approval or not, and never asks', async () => {
    runtime.answer = 'accept';
    const asked = runtime.asked.length;
    const refused = await call('mcp__write-notes__write_file', { path: '/srv/bundle/data/notes.txt', content: 'x' });
    runtime.answer = 'decline';

    expect(refused.isError).toBe(true);
    expect(text(refused)).toContain(
      `tier: readonly (set by workspace.yaml of ${ns}/write-notes@1.0.0 (server files)): "write_file" may write, so it is refused whatever approval is given`,
    );
    expect(runtime.asked.length).toBe(asked);
  });

  it('offers nothing of a skill whose required scopes are not granted, and says which to grant', () => {
    expect(listed().some((name) => name.startsWith('mcp__private-notes__'))).toBe(false);
    expect(runtime.log()).toContain(
      `${ns}/private-notes@1.0.0: its iam.required_scopes notes:private is not granted, so it offers nothing: grant it in the runtime config (grants: { "${ns}/private-notes": { scopes: [notes:private] } })`,
    );
  });

  it('cancels a call at its 1 s timeout and answers with the error then, not when the tool would finish (3 s)', async () => {
    const started = Date.now();
    const result = await call('mcp__slow-report__get_report');
    const elapsed = Date.now() - started;

    expect(result.isError).toBe(true);
    expect(text(result)).toContain(
      "get_report failed: it ran longer than 1 s (the skill's constraints.timeout_seconds), so it was cancelled",
    );
    expect(elapsed).toBeGreaterThanOrEqual(1_000);
    expect(elapsed).toBeLessThan(2_000);
    // The runtime's audit trail has the call, as a failure of that skill after about a second.
    const trail = readFileSync(join(dir, 'runtime-state', 'audit', 'calls.jsonl'), 'utf8');
    const line = trail
      .trimEnd()
      .split('\n')
      .map((entry) => JSON.parse(entry) as Record<string, unknown>)
      .find((entry) => entry.tool === 'mcp__slow-report__get_report');
    expect(line).toMatchObject({ skill: `${ns}/slow-report@1.0.0`, verdict: 'allow', outcome: 'error' });
    expect(line!.duration_ms).toBeGreaterThanOrEqual(1_000);
  });

  it('tries a failed call again as its retry says', async () => {
    expect(text(await call('mcp__note-count__get_note_count'))).toBe('There are 3 notes.');
    expect(runtime.log()).toContain(
      'mcp__note-count__get_note_count: try 1 failed (the tool answered with an error); trying again in 0 ms',
    );
  });

  it("fails a decision result that breaks its outputs schema, field by field, after asking the client's human", async () => {
    const asked = runtime.asked.length;
    const result = await call('mcp__judge__get_verdict');

    expect(result.isError).toBe(true);
    expect(text(result)).toContain(
      `its result breaks the skill's outputs schema: /verdict: must be equal to one of the allowed values ("pass", "fail")`,
    );
    expect(text(result)).toContain('on_failure is escalate_to_human, and the human declined to try again');
    expect(runtime.asked.slice(asked)).toEqual([
      expect.stringMatching(
        /^mcp__judge__get_verdict failed: its result breaks the skill's outputs schema: .*\nTry it again\?$/,
      ),
    ]);
  });

  it('serves an llm_prompt skill as a prompt, its inputs as arguments', async () => {
    const { prompts } = await runtime.client.listPrompts();
    const prompt = await runtime.client.getPrompt({
      name: `${ns}/analyze`,
      arguments: { complaint: 'The parcel came a week late.' },
    });

    await expect(runtime.client.getPrompt({ name: `${ns}/analyze` })).rejects.toThrow(
      `the prompt ${ns}/analyze needs complaint`,
    );
    expect(prompts.find((p) => p.name === `${ns}/analyze`)?.arguments).toEqual([
      { name: 'complaint', description: 'The complaint, as the customer wrote it.', required: true },
    ]);
    expect(prompt.messages[0]?.content).toEqual({
      type: 'text',
      text: 'Sort the complaint into one of: late, damaged, wrong item.\n\nInputs:\n{\n  "complaint": "The parcel came a week late."\n}',
    });
  });

  it('serves a composed skill as its parts, resolved whatever the config order, and not one with a part missing', async () => {
    const { prompts } = await runtime.client.listPrompts();
    const triage = await runtime.client.getPrompt({ name: `${ns}/triage` });

    expect(triage.messages[0]?.content).toMatchObject({
      text: expect.stringContaining(
        `1. ${ns}/analyze: The analyze skill, for the governance test. (prompts ${ns}/analyze)\n2. ${ns}/read-notes: The read-notes skill, for the governance test. (tools mcp__read-notes__read_text_file)`,
      ),
    });
    expect(prompts.map((p) => p.name)).not.toContain(`${ns}/lost-triage`);
    expect(runtime.log()).toContain(
      `${ns}/lost-triage@1.0.0: not offered: its part not-installed is not an installed skill that offers anything`,
    );
  });
});
