/**
 * A dependency-free MCP server as a synthetic npm package: plain JSON-RPC over stdio (one message per
 * line), answering `initialize`, `ping` and the three lists from data, paged. Tests use it for
 * servers no real package plays: poisoned tool descriptions, one that needs a variable, one that
 * never answers.
 */
import type { SyntheticPackage } from './packed-packages';

export interface SyntheticMcpServerOptions {
  name: string;
  version?: string;
  /** The package's description, as the registry shows it. */
  description?: string;
  tools: readonly Record<string, unknown>[];
  /** Advertised (and listed) only when given. */
  prompts?: readonly Record<string, unknown>[];
  resources?: readonly Record<string, unknown>[];
  /** Items per page of each list. Default: everything on one page. */
  pageSize?: number;
  /** Variables it refuses to start without, saying so on stderr as real servers do. */
  requireEnv?: readonly string[];
  /** Reads its input but never answers. */
  silent?: boolean;
  /**
   * JavaScript run inside the server at start that returns more tools (an array expression), so a
   * test can see what the server can reach from where it runs.
   */
  toolsAtStart?: string;
  /**
   * JavaScript for an async function `(name, args)` run on each `tools/call`: what it resolves to is the
   * result's text (a rejection, an error result). Without it, `tools/call` is answered "Method not found".
   */
  onCall?: string;
}

/**
 * The server script alone, for a bundle that carries it as a file. It holds only what the options
 * ask for: a bundled server is analysed, and an environment read it does not need would be a
 * capability its skill has to declare.
 */
export const syntheticMcpServerScript = (options: SyntheticMcpServerOptions): string => {
  const config = {
    name: options.name,
    version: options.version ?? '1.0.0',
    tools: options.tools,
    prompts: options.prompts ?? null,
    resources: options.resources ?? null,
    pageSize: options.pageSize ?? Number.MAX_SAFE_INTEGER,
    silent: options.silent ?? false,
  };
  const requireEnv = options.requireEnv ?? [];
  const envCheck =
    requireEnv.length === 0
      ? ''
      : `for (const name of ${JSON.stringify(requireEnv)}) {
  if (!process.env[name]) {
    console.error('Error: ' + name + ' environment variable is required');
    process.exit(1);
  }
}
`;
  return `#!/usr/bin/env node
'use strict';
const config = ${JSON.stringify(config)};
${envCheck}const tools = config.tools.concat(${options.toolsAtStart ?? '[]'});
const lists = { 'tools/list': ['tools', tools], 'prompts/list': ['prompts', config.prompts], 'resources/list': ['resources', config.resources] };
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
    if (config.silent || message.id === undefined) continue;
    answer(message);
  }
});
function answer(message) {
  const list = lists[message.method];
  if (message.method === 'initialize') {
    const capabilities = { tools: {} };
    if (config.prompts) capabilities.prompts = {};
    if (config.resources) capabilities.resources = {};
    return send({ id: message.id, result: { protocolVersion: message.params.protocolVersion, capabilities, serverInfo: { name: config.name, version: config.version } } });
  }
  if (message.method === 'ping') return send({ id: message.id, result: {} });${
    options.onCall
      ? `
  if (message.method === 'tools/call') {
    const text = (value) => [{ type: 'text', text: String(value) }];
    return Promise.resolve()
      .then(() => (${options.onCall})(message.params.name, message.params.arguments || {}))
      .then(
        (value) => send({ id: message.id, result: { content: text(value) } }),
        (error) => send({ id: message.id, result: { content: text(error && error.message), isError: true } }),
      );
  }`
      : ''
  }
  if (list && list[1]) {
    const start = Number((message.params && message.params.cursor) || 0);
    const end = start + config.pageSize;
    const result = { [list[0]]: list[1].slice(start, end) };
    if (end < list[1].length) result.nextCursor = String(end);
    return send({ id: message.id, result });
  }
  send({ id: message.id, error: { code: -32601, message: 'Method not found: ' + message.method } });
}
`;
};

/** The server as an npm package whose only file besides package.json is the script, named as its bin. */
export const syntheticMcpServer = (options: SyntheticMcpServerOptions): SyntheticPackage => {
  const version = options.version ?? '1.0.0';
  return {
    name: options.name,
    version,
    files: {
      'package.json': JSON.stringify({
        name: options.name,
        version,
        description: options.description,
        // The script is CommonJS: said outright, Node does not guess the module type from the source.
        type: 'commonjs',
        bin: { [unscoped(options.name)]: 'server.js' },
        license: 'MIT',
      }),
      'server.js': syntheticMcpServerScript(options),
    },
  };
};

const unscoped = (name: string): string => name.slice(name.indexOf('/') + 1);
