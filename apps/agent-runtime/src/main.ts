/**
 * agent-runtime: checks that its hub answers, installs the certified skills of its RUNTIME_CONFIG
 * (verified offline), starts the servers their certificates let run in the sandbox and the servers
 * its operator configures, and serves their tools behind the gate.
 *
 * It starts in two steps. This one reads the environment and the runtime's YAML and opens the stdio
 * gateway with the few modules that takes, so a client that spawned the runtime has its handshake
 * answered at once; then runtime-app.ts loads the rest.
 */
import { loadConfigOrExit } from '@skillhub/config/env';
import { loadRuntimeConfig } from './config/runtime-config';
import { openStdioGateway } from './gateway/gateway-stdio';

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const runtime = config.RUNTIME_CONFIG ? loadRuntimeConfig(config.RUNTIME_CONFIG) : null;
  const stdio = runtime?.gateway.stdio ? await openStdioGateway() : null;
  const { startRuntime } = await import('./runtime-app.js');
  await startRuntime(config, { runtime, stdio });
}

main().catch((err: Error) => {
  console.error(`agent-runtime failed to start: ${err.message}`);
  process.exit(1);
});
