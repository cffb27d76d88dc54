import type { ServerLock } from '@skillhub/signing';
/**
 * What the certifier saw when it started a skill's MCP server in the sandbox (C13): the server's
 * live tool, prompt and resource definitions, or why it could not list them. Gathered by the
 * worker before certification (see libs/live-probe); the checks only read it.
 */

export interface LiveTool {
  name: string;
  description?: string;
  inputSchema?: unknown;
  annotations?: unknown;
}

export interface LivePrompt {
  name: string;
  description?: string;
  arguments?: unknown;
}

export interface LiveResource {
  uri: string;
  name?: string;
  description?: string;
  mimeType?: string;
}

export type LiveProbeOutcome =
  /** Started in the sandbox and answered tools/list (prompts and resources when it offers them). */
  | 'listed'
  /** Started but failed, timed out, or asked for what the sandbox does not give (network, secrets). */
  | 'failed'
  /** Not started: its launch spec is not one the hub can run (C15 says why), or no sandbox here. */
  | 'not-probed';

export interface LiveServerProbe {
  /** The server's name as the skill declares it. */
  server: string;
  outcome: LiveProbeOutcome;
  /** Why it failed or was not probed, in a sentence a publisher can act on; '' when listed. */
  detail: string;
  tools: LiveTool[];
  prompts: LivePrompt[];
  resources: LiveResource[];
  /** A PyPI server: the wheels it was installed from, by hash, which the certificate records. */
  lock?: ServerLock;
  /** Listed, but these lists failed (their reasons are in `detail`): nothing of them was scanned. */
  unlisted?: Array<'prompts' | 'resources'>;
}
