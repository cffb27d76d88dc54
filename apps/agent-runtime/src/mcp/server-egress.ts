/**
 * The egress proxies of the runtime's sandboxed servers: one per server granted network, listening on
 * a Unix socket of its own (random name, in a folder other users can pass through but not list),
 * which the sandbox binds in and hands to that server's uid alone. Each proxy applies the server's
 * domain allowlist and the operator's `sandbox_egress.allow_addresses`, and every connection it allows
 * or refuses is written to the network audit trail. Certified remote servers are reached by the same
 * rule, through a proxy of their own (libs/live-probe's openRemoteConnection).
 */
import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RemoteAccess } from '@skillhub/live-probe';
import { EgressProxy, type EgressEvent, nodeInSandbox, type SandboxNetwork } from '@skillhub/sandbox';
import type { ServerNetwork } from '../config/network-setting';

export interface ServerEgressOptions {
  allowAddresses: readonly string[];
  /** PEM CAs trusted for remote servers besides the system's. */
  extraCa?: string | null;
  /** Every connection decision, allowed or refused. */
  record: (event: EgressEvent) => void;
}

export class ServerEgress {
  private folder: Promise<string> | null = null;
  private readonly proxies = new Map<string, Promise<EgressProxy>>();

  constructor(private readonly options: ServerEgressOptions) {}

  /** The sandbox network of the server `name` (one proxy per name, kept across its restarts). */
  async network(name: string, network: ServerNetwork): Promise<SandboxNetwork> {
    let proxy = this.proxies.get(name);
    if (!proxy) {
      proxy = this.start(name, network);
      this.proxies.set(name, proxy);
      proxy.catch(() => this.proxies.delete(name));
    }
    return { proxySocket: (await proxy).socketPath, node: nodeInSandbox() };
  }

  /** How a certified remote server is reached: by the same rule (public addresses, the operator's own), on the same audit trail. */
  remoteAccess(): RemoteAccess {
    return {
      allowAddresses: this.options.allowAddresses,
      extraCa: this.options.extraCa ?? null,
      onEvent: this.options.record,
    };
  }

  async close(): Promise<void> {
    const proxies = await Promise.allSettled(this.proxies.values());
    this.proxies.clear();
    await Promise.all(proxies.map((p) => (p.status === 'fulfilled' ? p.value.close() : undefined)));
    if (this.folder) await rm(await this.folder, { recursive: true, force: true });
  }

  private async start(name: string, network: ServerNetwork): Promise<EgressProxy> {
    this.folder ??= mkdtemp(join(tmpdir(), 'skillhub-egress-')).then(async (folder) => {
      await chmod(folder, 0o711);
      return folder;
    });
    return EgressProxy.start({
      name,
      socketPath: join(await this.folder, `${randomBytes(16).toString('hex')}.sock`),
      allowDomains: network.domains,
      allowAddresses: this.options.allowAddresses,
      onEvent: this.options.record,
    });
  }
}
