/**
 * An MCP stdio transport whose server runs in the sandbox. Unlike the SDK's StdioClientTransport it
 * says how the server ended (exit code or signal) and keeps the tail of its stderr, so a caller can
 * tell a publisher why a server did not start; and `close()` kills the whole sandbox at once.
 */
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { spawnSandboxed, type SandboxExit, type SandboxedProcess } from './sandbox-launcher';
import { SANDBOX_TOOLS, type SandboxPolicy, type SandboxTools } from './sandbox-policy';

export interface SandboxStdioTransportOptions {
  /** The longest message (one line of stdout) accepted; a longer one ends the session. Default 4 MiB. */
  maxMessageBytes?: number;
  /** How much of the end of stderr is kept. Default 8 KiB. */
  stderrTailBytes?: number;
  tools?: SandboxTools;
}

const DEFAULT_MAX_MESSAGE_BYTES = 4 * 1024 * 1024;
const DEFAULT_STDERR_TAIL_BYTES = 8 * 1024;

export class SandboxStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;
  /** How the sandbox ended; null while it runs or before it started. */
  exit: SandboxExit | null = null;

  private sandboxed: SandboxedProcess | null = null;
  private readonly readBuffer: ReadBuffer;
  private stderr = Buffer.alloc(0);
  private readonly stderrTailBytes: number;

  constructor(
    private readonly policy: SandboxPolicy,
    private readonly argv: readonly string[],
    private readonly options: SandboxStdioTransportOptions = {},
  ) {
    this.readBuffer = new ReadBuffer({ maxBufferSize: options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES });
    this.stderrTailBytes = options.stderrTailBytes ?? DEFAULT_STDERR_TAIL_BYTES;
  }

  /** The last bytes the server wrote to stderr, as text. */
  get stderrTail(): string {
    return this.stderr.toString('utf8');
  }

  async start(): Promise<void> {
    if (this.sandboxed) throw new Error('SandboxStdioTransport already started');
    const sandboxed = spawnSandboxed(this.policy, this.argv, this.options.tools ?? SANDBOX_TOOLS);
    this.sandboxed = sandboxed;
    sandboxed.stdout.on('data', (chunk: Buffer) => this.receive(chunk));
    sandboxed.stderr.on('data', (chunk: Buffer) => this.keepStderr(chunk));
    void sandboxed.exited.then((exit) => {
      this.exit = exit;
      this.onclose?.();
    });
    await sandboxed.spawned;
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.sandboxed?.stdin;
    if (!stdin || this.exit) return Promise.reject(new Error('the sandboxed server is not running'));
    return new Promise((resolve) => {
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', resolve);
    });
  }

  /** Kills the sandbox and waits until it is gone. */
  async close(): Promise<void> {
    const sandboxed = this.sandboxed;
    if (!sandboxed) return;
    sandboxed.kill();
    await sandboxed.exited;
    this.readBuffer.clear();
  }

  private receive(chunk: Buffer): void {
    try {
      this.readBuffer.append(chunk);
    } catch (error) {
      // A line over the size cap: the buffer is gone, so the session cannot continue.
      this.onerror?.(error as Error);
      this.sandboxed?.kill();
      return;
    }
    for (;;) {
      try {
        const message = this.readBuffer.readMessage();
        if (message === null) return;
        this.onmessage?.(message);
      } catch (error) {
        // A line that is not JSON-RPC (a stray log line, say) is already consumed: report it and read on.
        this.onerror?.(error as Error);
      }
    }
  }

  private keepStderr(chunk: Buffer): void {
    const joined = Buffer.concat([this.stderr, chunk]);
    this.stderr = joined.length > this.stderrTailBytes ? joined.subarray(joined.length - this.stderrTailBytes) : joined;
  }
}
