/**
 * The governed gateway in front of real MCP servers from npm: server-everything over
 * stdio and Streamable HTTP, server-filesystem on a temp folder. A test client talks to
 * the gateway over the SDK's in-memory transport pair.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ElicitRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  createPreApprovalPolicy,
  DEFAULT_AUDIT_POLICY,
  EMPTY_PRE_APPROVAL_POLICY,
  type PreApprovalPolicy,
  readAuditPolicy,
  readCallPolicy,
} from '@skillhub/gate';
import { syntheticMcpServerScript } from '@skillhub/package-probe/testing';
import { DEFAULT_SANDBOX_LIMITS, sandboxEnforcement } from '@skillhub/sandbox';
import type { CallAuditRecord } from '../apps/agent-runtime/src/gateway/call-audit-trail';
import { FileSkillReviews, type SkillReviews } from '../apps/agent-runtime/src/gateway/skill-reviews';
import { Gateway } from '../apps/agent-runtime/src/gateway/gateway';
import { serveGatewayHttp } from '../apps/agent-runtime/src/gateway/gateway-http';
import { MemoryToolPins } from '../apps/agent-runtime/src/gateway/testing/memory-tool-pins';
import { mcpServerConfigSchema } from '../apps/agent-runtime/src/mcp/mcp-server.config';
import { operatorUpstream } from '../apps/agent-runtime/src/mcp/operator-connector';
import { ServerEgress } from '../apps/agent-runtime/src/mcp/server-egress';
import type { PlannedSkillTool } from '../apps/agent-runtime/src/mcp/server-plan';
import type { UpstreamServer } from '../apps/agent-runtime/src/mcp/upstream-server';
import { sparePort, waitFor } from './support/private-redis';

const EVERYTHING = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');
const FILESYSTEM = require.resolve('@modelcontextprotocol/server-filesystem/dist/index.js');
const RUNTIME_SECRET = 'runtime-secret-that-must-not-leak';
/** A server whose list holds a name no model API accepts and a name twice, beside one ordinary tool. */
const ODD_SERVER = syntheticMcpServerScript({
  name: 'odd',
  tools: [
    { name: 'has space', inputSchema: { type: 'object' } },
    { name: 'list_notes', description: 'first', inputSchema: { type: 'object' } },
    { name: 'list_notes', description: 'second', inputSchema: { type: 'object' } },
  ],
});

const timing = { connectTimeoutMs: 15_000, callTimeoutMs: 15_000, retryDelayMs: 200, maxRetryDelayMs: 2_000 };
const connectors = {
  inheritEnv: false,
  runtimeEnv: { ...process.env, KAZMA_SECRET: RUNTIME_SECRET, SKILLHUB_TOKEN: RUNTIME_SECRET },
  sandbox: {
    mode: 'on' as const,
    availability: { ok: true as const },
    limits: DEFAULT_SANDBOX_LIMITS,
    enforcement: sandboxEnforcement(),
    egress: new ServerEgress({ allowAddresses: [], record: () => undefined }),
  },
};
const TOKEN = 'a-gateway-token-of-some-length';
const bearer = { authorization: `Bearer ${TOKEN}` };
const warnings: string[] = [];
const operator = (config: unknown, overrides: Partial<typeof timing> = {}) =>
  operatorUpstream(mcpServerConfigSchema.parse(config), connectors, {
    ...timing,
    ...overrides,
    warn: (message) => warnings.push(message),
  });

const text = (r: CallToolResult) => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');

describe('gateway over real MCP servers', () => {
  let folder: string;
  let httpServer: ChildProcess;
  let upstreams: UpstreamServer[];

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'skillhub-fs-'));
    writeFileSync(join(folder, 'notes.txt'), 'hello from the folder\n');
    const port = await sparePort();
    httpServer = spawn(process.execPath, [EVERYTHING, 'streamableHttp'], {
      env: { ...process.env, PORT: String(port) },
      stdio: 'ignore',
    });
    writeFileSync(join(folder, 'odd-server.js'), ODD_SERVER);
    upstreams = [
      operator({ name: 'everything', transport: 'stdio', command: [process.execPath, EVERYTHING, 'stdio'] }),
      operator({ name: 'files', transport: 'stdio', command: [process.execPath, FILESYSTEM, folder] }),
      operator({ name: 'remote', transport: 'http', url: `http://127.0.0.1:${port}/mcp` }),
      operator(
        {
          name: 'broken',
          transport: 'stdio',
          command: [process.execPath, '-e', 'console.error("no config"); process.exit(3)'],
        },
        { connectTimeoutMs: 3_000 },
      ),
      operator({ name: 'odd', transport: 'stdio', command: [process.execPath, join(folder, 'odd-server.js')] }),
    ];
    // The HTTP server needs a moment to listen.
    await waitFor(
      async () => (await upstreams[2]!.ensureConnected()).status === 'connected',
      20_000,
      'the HTTP server',
    );
  });
  afterAll(async () => {
    await Promise.all(upstreams.map((u) => u.close()));
    await connectors.sandbox.egress.close();
    httpServer.kill();
    rmSync(folder, { recursive: true, force: true });
  });

  async function connect(
    policy: PreApprovalPolicy = EMPTY_PRE_APPROVAL_POLICY,
    answer?: 'accept' | 'decline',
    pins: MemoryToolPins = new MemoryToolPins(),
  ) {
    const gateway = new Gateway(upstreams, {
      environment: { production: false, trustedInProdAllowed: false },
      preApproval: policy,
      pins,
    });
    const client = new Client({ name: 'test', version: '1.0.0' }, { capabilities: answer ? { elicitation: {} } : {} });
    const asked: string[] = [];
    if (answer) {
      client.setRequestHandler(ElicitRequestSchema, (req) => {
        asked.push(String(req.params.message));
        return answer === 'accept' ? { action: 'accept', content: { approve: true } } : { action: 'decline' };
      });
    }
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await gateway.createServer().connect(serverSide);
    await client.connect(clientSide);
    return { client, asked };
  }

  const call = async (client: Client, name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })) as CallToolResult;

  it('lists every connected server’s tools namespaced; a failing server is left out with its reason', async () => {
    const { client } = await connect();
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'mcp__everything__echo',
        'mcp__everything__get-sum',
        'mcp__files__read_text_file',
        'mcp__remote__echo',
      ]),
    );
    expect(names.some((n) => n.startsWith('mcp__broken__'))).toBe(false);
    expect(upstreams[3]!.state).toMatchObject({
      status: 'failed',
      failures: 1,
      reason: expect.stringContaining('Connection closed; stderr: "no config"'),
    });
  });

  it('drops a tool whose name cannot be namespaced, with a warning, and never lists a name twice', async () => {
    const { client } = await connect();
    const names = (await client.listTools()).tools.map((t) => t.name);

    expect(names.filter((n) => n.startsWith('mcp__odd__'))).toEqual(['mcp__odd__list_notes']);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toContain('mcp__everything__get-sum');
    expect(warnings).toEqual(
      expect.arrayContaining([
        'odd: the tool "has space" is dropped: a tool name uses only letters, digits, "_", "-" and "."',
        'odd: the tool list_notes is listed twice: only its first definition is used',
      ]),
    );
  });

  it('lets a safe tool through, over stdio and Streamable HTTP', async () => {
    const { client } = await connect();
    expect(text(await call(client, 'mcp__everything__get-sum', { a: 2, b: 3 }))).toContain('5');
    expect(text(await call(client, 'mcp__remote__get-sum', { a: 20, b: 22 }))).toContain('42');
  });

  it('gates an unknown tool: refused without a way to ask, allowed by pre-approval or by the client’s answer', async () => {
    const refused = await call((await connect()).client, 'mcp__everything__echo', { message: 'hi' });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatch(/approval/);

    const pre = await connect(createPreApprovalPolicy({ allow: ['mcp__everything__echo'] }));
    expect(text(await call(pre.client, 'mcp__everything__echo', { message: 'hi' }))).toBe('Echo: hi');

    const asked = await connect(EMPTY_PRE_APPROVAL_POLICY, 'accept');
    expect(text(await call(asked.client, 'mcp__everything__echo', { message: 'ok' }))).toBe('Echo: ok');
    expect(asked.asked[0]).toContain('mcp__everything__echo');

    const declined = await connect(EMPTY_PRE_APPROVAL_POLICY, 'decline');
    expect((await call(declined.client, 'mcp__everything__echo', { message: 'no' })).isError).toBe(true);
  });

  it('filesystem: reading passes; writing needs approval and, approved, writes the file', async () => {
    const { client } = await connect();
    expect(text(await call(client, 'mcp__files__read_text_file', { path: join(folder, 'notes.txt') }))).toContain(
      'hello from the folder',
    );
    const target = join(folder, 'written.txt');
    const refused = await call(client, 'mcp__files__write_file', { path: target, content: 'x' });
    expect(refused.isError).toBe(true);
    expect(() => readFileSync(target)).toThrow();

    const approved = await connect(EMPTY_PRE_APPROVAL_POLICY, 'accept');
    await call(approved.client, 'mcp__files__write_file', { path: target, content: 'written through the gate' });
    expect(readFileSync(target, 'utf8')).toBe('written through the gate');
  });

  it('a stdio server sees no runtime secret in its environment', async () => {
    const { client } = await connect();
    const env = text(await call(client, 'mcp__everything__get-env', {}));
    expect(env).toContain('PATH');
    expect(env).not.toContain(RUNTIME_SECRET);
  });

  it('an unknown or mis-namespaced tool is refused, never routed', async () => {
    const { client } = await connect(createPreApprovalPolicy({ allow: ['mcp__everything__*'] }));
    expect((await call(client, 'mcp__everything__no-such-tool', {})).isError).toBe(true);
    expect((await call(client, 'echo', { message: 'raw' })).isError).toBe(true);
  });

  describe('over Streamable HTTP', () => {
    const gateway = () =>
      new Gateway(upstreams, {
        environment: { production: false, trustedInProdAllowed: false },
        preApproval: EMPTY_PRE_APPROVAL_POLICY,
        pins: new MemoryToolPins(),
      });
    const httpClient = async (url: string, answer?: 'accept') => {
      const client = new Client(
        { name: 'http-test', version: '1.0.0' },
        { capabilities: answer ? { elicitation: {} } : {} },
      );
      const asked: string[] = [];
      if (answer) {
        client.setRequestHandler(ElicitRequestSchema, (req) => {
          asked.push(String(req.params.message));
          return { action: 'accept', content: { approve: true } };
        });
      }
      const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: bearer } });
      await client.connect(transport);
      return { client, transport, asked };
    };
    const rpc = (url: string, body: object, headers: Record<string, string> = {}) =>
      fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...bearer,
          ...headers,
        },
        body: JSON.stringify(body),
      });

    it('keeps a session per client: its calls reuse one server, and DELETE ends it', async () => {
      const http = await serveGatewayHttp(gateway(), '127.0.0.1', 0, { token: TOKEN });
      try {
        const { client, transport } = await httpClient(http.url);
        expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
        expect(http.sessionCount()).toBe(1);
        expect((await client.listTools()).tools.map((t) => t.name)).toContain('mcp__everything__get-sum');
        for (let i = 0; i < 5; i++) {
          expect(text(await call(client, 'mcp__everything__get-sum', { a: i, b: 1 }))).toContain(String(i + 1));
        }
        expect((await call(client, 'mcp__everything__echo', { message: 'x' })).isError).toBe(true);
        expect(http.sessionCount()).toBe(1);
        const id = transport.sessionId!;
        await transport.terminateSession();
        expect(http.sessionCount()).toBe(0);
        const ended = await rpc(http.url, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { 'mcp-session-id': id });
        expect(ended.status).toBe(404);
        await client.close();
      } finally {
        await http.close();
      }
    });

    it('asks for approval by elicitation on the call’s own stream, and with it runs the call', async () => {
      const http = await serveGatewayHttp(gateway(), '127.0.0.1', 0, { token: TOKEN });
      try {
        const { client, asked } = await httpClient(http.url, 'accept');
        expect(text(await call(client, 'mcp__everything__echo', { message: 'approved over http' }))).toBe(
          'Echo: approved over http',
        );
        expect(asked).toHaveLength(1);
        expect(asked[0]).toContain('mcp__everything__echo');
        await client.close();
      } finally {
        await http.close();
      }
    });

    it('serves a client that keeps no session, request by request', async () => {
      const http = await serveGatewayHttp(gateway(), '127.0.0.1', 0, { token: TOKEN });
      try {
        const res = await rpc(http.url, {
          jsonrpc: '2.0',
          id: 7,
          method: 'tools/call',
          params: { name: 'mcp__everything__get-sum', arguments: { a: 20, b: 22 } },
        });
        expect(res.status).toBe(200);
        expect(JSON.stringify(await res.json())).toContain('42');
        expect(http.sessionCount()).toBe(0);
        expect((await fetch(http.url, { headers: bearer })).status).toBe(405);
        expect((await rpc(http.url.replace('/mcp', '/other'), {})).status).toBe(404);
        const bad = await fetch(http.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...bearer },
          body: '{',
        });
        expect(bad.status).toBe(400);
      } finally {
        await http.close();
      }
    });

    it('caps live sessions: a session mid-request keeps its slot; otherwise the least recently used gives way', async () => {
      const http = await serveGatewayHttp(gateway(), '127.0.0.1', 0, { token: TOKEN, maxSessions: 1, idleMs: 300 });
      try {
        // A call waiting for approval holds its request open: its session is mid-request.
        let approve!: () => void;
        const answered = new Promise<void>((r) => (approve = r));
        const waiting = new Client({ name: 'waiting', version: '1.0.0' }, { capabilities: { elicitation: {} } });
        waiting.setRequestHandler(ElicitRequestSchema, async () => {
          await answered;
          return { action: 'accept', content: { approve: true } };
        });
        await waiting.connect(
          new StreamableHTTPClientTransport(new URL(http.url), { requestInit: { headers: bearer } }),
        );
        const held = waiting.callTool({ name: 'mcp__everything__echo', arguments: { message: 'held' } });
        await new Promise((r) => setTimeout(r, 300));
        await expect(httpClient(http.url)).rejects.toThrow(/503|busy/);
        approve();
        expect(text((await held) as CallToolResult)).toBe('Echo: held');

        // Now it only holds an open event stream: a new client takes its slot, and the old id is gone.
        const second = await httpClient(http.url);
        expect(http.sessionCount()).toBe(1);
        await expect(waiting.listTools()).rejects.toThrow();
        expect(text(await call(second.client, 'mcp__everything__get-sum', { a: 1, b: 2 }))).toContain('3');

        // Closed (no request, no stream) and idle past idleMs: swept.
        await second.client.close();
        await waitFor(async () => http.sessionCount() === 0, 5_000, 'the idle session to be swept');
        await waiting.close();
      } finally {
        await http.close();
      }
    });

    it('on every interface, still serves only the Host names it was given', async () => {
      const http = await serveGatewayHttp(gateway(), '0.0.0.0', 0, {
        token: TOKEN,
        allowedHosts: ['gateway.internal:4444'],
      });
      const port = new URL(http.url).port;
      const status = (host: string) =>
        new Promise<number>((resolve, reject) => {
          const req = request(
            http.url,
            {
              method: 'POST',
              headers: {
                host,
                'content-type': 'application/json',
                accept: 'application/json, text/event-stream',
                ...bearer,
              },
            },
            (res) => {
              res.resume();
              resolve(res.statusCode ?? 0);
            },
          );
          req.on('error', reject);
          req.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }));
        });
      try {
        expect(await status(`127.0.0.1:${port}`)).toBe(200);
        expect(await status('gateway.internal:4444')).toBe(200);
        expect(await status(`rebound.example:${port}`)).toBe(403);
        expect(await status(`0.0.0.0:${port}`)).toBe(403);
      } finally {
        await http.close();
      }
    });

    it('serves only its own Host and Origin on loopback, and only bearers of its token', async () => {
      const http = await serveGatewayHttp(gateway(), '127.0.0.1', 0, { token: TOKEN });
      const port = new URL(http.url).port;
      const raw = (headers: Record<string, string>) =>
        new Promise<number>((resolve, reject) => {
          const req = request(
            http.url,
            {
              method: 'POST',
              headers: {
                'content-type': 'application/json',
                accept: 'application/json, text/event-stream',
                ...headers,
              },
            },
            (res) => {
              res.resume();
              resolve(res.statusCode ?? 0);
            },
          );
          req.on('error', reject);
          req.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }));
        });
      try {
        expect(await raw({})).toBe(401);
        expect(await raw({ authorization: 'Bearer not-the-token' })).toBe(401);
        expect(await raw(bearer)).toBe(200);
        expect(await raw({ ...bearer, host: `localhost:${port}` })).toBe(200);
        expect(await raw({ ...bearer, host: `rebound.example:${port}` })).toBe(403);
        expect(await raw({ ...bearer, origin: 'https://evil.example' })).toBe(403);
        expect(await raw({ ...bearer, origin: `http://localhost:${port}` })).toBe(200);
        const client = new Client({ name: 'with-token', version: '1.0.0' });
        await client.connect(
          new StreamableHTTPClientTransport(new URL(http.url), { requestInit: { headers: bearer } }),
        );
        expect(text(await call(client, 'mcp__everything__get-sum', { a: 2, b: 3 }))).toContain('5');
        await client.close();
      } finally {
        await http.close();
      }
    });
  });

  it('returns upstream resources marked as untrusted data', async () => {
    const { client } = await connect();
    const resources = (await client.listResources()).resources;
    const fromEverything = resources.find((r) => r.uri.startsWith('skillhub-resource://everything/'));
    expect(fromEverything).toBeDefined();
    const read = await client.readResource({ uri: fromEverything!.uri });
    const [notice, ...rest] = read.contents;
    expect(notice).toMatchObject({
      text: expect.stringContaining('UNTRUSTED DATA'),
      _meta: { 'skillhub/untrusted': true },
    });
    expect(rest.length).toBeGreaterThan(0);
    for (const part of rest)
      expect(part._meta).toMatchObject({ 'skillhub/untrusted': true, 'skillhub/server': 'everything' });
    await expect(client.readResource({ uri: 'skillhub-resource://nowhere/x' })).rejects.toThrow(/no resource/);
  });

  it('blocks a tool whose definition changed since it was pinned on first use, even with approval, and says so', async () => {
    const pins = new MemoryToolPins();
    pins.pinIfNew('mcp__everything__get-sum', {
      name: 'get-sum',
      description: 'What the tool said it did when it was first seen',
      inputSchema: { type: 'object' },
    });
    const { client } = await connect(createPreApprovalPolicy({ allow: ['mcp__everything__*'] }), 'accept', pins);
    const result = await call(client, 'mcp__everything__get-sum', { a: 1, b: 2 });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('integrity: the definition of "get-sum" changed since this runtime first saw it');
    expect(text(result)).toContain('trust on first use: a server the operator configured, which nothing certified');
    expect(text(result)).not.toContain('certification');
    // An unpinned gateway pins on first sight and lets the same safe call through.
    expect(text(await call((await connect()).client, 'mcp__everything__get-sum', { a: 1, b: 2 }))).toContain('3');
  });

  describe("a SwarmKit skill's tool on an operator's server", () => {
    const skillTool = (name: string, tool: string, more: Partial<PlannedSkillTool> = {}): PlannedSkillTool => ({
      certifiedAs: `acme/${name}@1.0.0`,
      name,
      namespace: name,
      title: `The ${name} skill`,
      description: `What ${name} does.`,
      server: 'files',
      ownServer: false,
      upstream: 'files',
      tool,
      governance: { tiers: [], effect: null, presets: {} },
      review: null,
      call: readCallPolicy(undefined, 15_000),
      audit: DEFAULT_AUDIT_POLICY,
      outputs: null,
      ...more,
    });
    const readonly = { tier: 'readonly' as const, setBy: 'operator' as const, where: 'the runtime config' };

    async function connectSkills(
      tools: PlannedSkillTool[],
      audited: CallAuditRecord[] = [],
      { reviews, answer = 'accept' }: { reviews?: SkillReviews; answer?: 'accept' | 'decline' } = {},
    ) {
      const gateway = new Gateway(
        upstreams,
        {
          environment: { production: false, trustedInProdAllowed: false },
          preApproval: EMPTY_PRE_APPROVAL_POLICY,
          pins: new MemoryToolPins(),
          warn: (message) => warnings.push(message),
          audit: { record: (entry) => audited.push(entry) },
          reviews,
        },
        { tools },
      );
      const client = new Client({ name: 'test', version: '1.0.0' }, { capabilities: { elicitation: {} } });
      const asked: string[] = [];
      client.setRequestHandler(ElicitRequestSchema, (req) => {
        asked.push(String(req.params.message));
        return answer === 'accept' ? { action: 'accept', content: { approve: true } } : { action: 'decline' };
      });
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      await gateway.createServer().connect(serverSide);
      await client.connect(clientSide);
      return { client, asked };
    }

    it('is offered under the skill’s name beside the server’s own tools, its presets fixed', async () => {
      const notes = join(folder, 'notes.txt');
      const { client } = await connectSkills([
        skillTool('read-notes', 'read_text_file', {
          governance: { tiers: [], effect: null, presets: { path: notes } },
        }),
      ]);
      const tools = (await client.listTools()).tools;
      const offered = tools.find((tool) => tool.name === 'mcp__read-notes__read_text_file');

      expect(tools.map((tool) => tool.name)).toContain('mcp__files__read_text_file');
      expect(offered).toMatchObject({ title: 'The read-notes skill' });
      expect(offered!.description).toMatch(/^What read-notes does\.\n\n/);
      expect(Object.keys(offered!.inputSchema.properties ?? {})).not.toContain('path');
      expect(text(await call(client, 'mcp__read-notes__read_text_file', {}))).toContain('hello from the folder');
      expect(text(await call(client, 'mcp__read-notes__read_text_file', { path: '/etc/hostname' }))).toContain(
        'preset by the skill',
      );
    });

    it('asks a human before the first call of a skill a swarm authored, and not once it was approved, across restarts', async () => {
      const notes = join(folder, 'swarm-notes.txt');
      writeFileSync(notes, 'written by a person');
      const file = join(folder, 'trust', 'reviewed-skills.json');
      const swarmAuthored = skillTool('swarm-notes', 'read_text_file', {
        governance: { tiers: [], effect: null, presets: { path: notes } },
        review: 'acme/swarm-notes@1.0.0 was authored by a swarm and no human has reviewed it yet',
      });
      const declining = await connectSkills([swarmAuthored], [], {
        reviews: new FileSkillReviews(file),
        answer: 'decline',
      });
      const refused = await call(declining.client, 'mcp__swarm-notes__read_text_file', {});
      expect(refused.isError).toBe(true);
      expect(text(refused)).toContain('review: acme/swarm-notes@1.0.0 was authored by a swarm');
      expect(declining.asked).toHaveLength(1);

      const { client, asked } = await connectSkills([swarmAuthored], [], { reviews: new FileSkillReviews(file) });
      expect(text(await call(client, 'mcp__swarm-notes__read_text_file', {}))).toContain('written by a person');
      expect(asked).toHaveLength(1);
      expect(asked[0]).toContain('no human has reviewed it yet');
      expect(text(await call(client, 'mcp__swarm-notes__read_text_file', {}))).toContain('written by a person');
      expect(asked).toHaveLength(1);
      expect(Object.keys(JSON.parse(readFileSync(file, 'utf8')).reviewed)).toEqual(['acme/swarm-notes@1.0.0']);

      // Another start of the runtime reads the review back: nothing is asked.
      const again = await connectSkills([swarmAuthored], [], { reviews: new FileSkillReviews(file) });
      expect(text(await call(again.client, 'mcp__swarm-notes__read_text_file', {}))).toContain('written by a person');
      expect(again.asked).toEqual([]);
    });

    it('keeps a readonly skill from writing, though the client would approve, while the server itself asks', async () => {
      const target = join(folder, 'through-a-skill.txt');
      const { client, asked } = await connectSkills([
        skillTool('write-notes', 'write_file', { governance: { tiers: [readonly], effect: null, presets: {} } }),
      ]);

      const refused = await call(client, 'mcp__write-notes__write_file', { path: target, content: 'x' });
      expect(refused.isError).toBe(true);
      expect(text(refused)).toContain('tier: readonly (set by the runtime config)');
      expect(asked).toEqual([]);
      expect(() => readFileSync(target)).toThrow();

      await call(client, 'mcp__files__write_file', { path: target, content: 'approved' });
      expect(asked).toHaveLength(1);
      expect(readFileSync(target, 'utf8')).toBe('approved');
    });

    it("records every call in the audit trail as the skill's audit says: redacted, summarised, over budget, refused", async () => {
      const notes = join(folder, 'audited.txt');
      writeFileSync(notes, 'The plan for Tuesday.');
      const audited: CallAuditRecord[] = [];
      const { client } = await connectSkills(
        [
          skillTool('read-notes', 'read_text_file', {
            audit: readAuditPolicy(
              { log_inputs: 'full', log_outputs: 'summary', redact: ['$.path'] },
              { max_latency_ms: 1 },
            ),
          }),
          skillTool('write-notes', 'write_file', { governance: { tiers: [readonly], effect: null, presets: {} } }),
        ],
        audited,
      );

      expect(text(await call(client, 'mcp__read-notes__read_text_file', { path: notes }))).toContain('Tuesday');
      await call(client, 'mcp__write-notes__write_file', { path: notes, content: 'x' });
      await call(client, 'mcp__files__read_text_file', { path: notes, head: 1 });

      const [read, write, whole] = audited;
      expect(audited).toHaveLength(3);
      expect(read).toMatchObject({
        tool: 'mcp__read-notes__read_text_file',
        skill: 'acme/read-notes@1.0.0',
        server: 'files',
        verdict: 'allow',
        outcome: 'ok',
        input: { path: '[redacted]' },
        output: { isError: false, content: [{ type: 'text' }] },
        recorded: { input: 'full', output: 'summary' },
        latency_budget_ms: 1,
        over_budget: true,
      });
      expect(JSON.stringify(audited)).not.toContain('Tuesday');
      expect(JSON.stringify(read)).not.toContain(notes);
      expect(warnings.some((w) => /mcp__read-notes__read_text_file took \d+ ms, over the 1 ms/.test(w))).toBe(true);
      expect(write).toMatchObject({ skill: 'acme/write-notes@1.0.0', verdict: 'deny', outcome: 'refused' });
      expect(write!.reasons!.join(' ')).toContain('tier: readonly');
      expect(write!.output).toBeUndefined();
      // A whole server's tool: shapes only, no budget.
      expect(whole).toMatchObject({ skill: null, server: 'files', input: { keys: ['head', 'path'] } });
      expect(whole).not.toHaveProperty('over_budget');
    });

    it('does not offer a tool the server does not list, and says so', async () => {
      const { client } = await connectSkills([skillTool('ghost', 'no_such_tool')]);

      expect((await client.listTools()).tools.some((tool) => tool.name.startsWith('mcp__ghost__'))).toBe(false);
      expect(warnings).toContain(
        'acme/ghost@1.0.0: the tool no_such_tool is not offered: its server files does not list it',
      );
    });
  });
});
