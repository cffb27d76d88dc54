/**
 * agent-runtime: installs certified skills from KAZMA_HUB_URL and serves their tools
 * behind the gate. This first slice checks that the hub answers and stays up; skill
 * installation, verification and the MCP gateway arrive with the runtime issue.
 */
import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { loadConfigOrExit } from '@skillhub/config';
import { AgentRuntimeModule } from './agent-runtime.module';

async function bootstrap(): Promise<void> {
  const config = loadConfigOrExit();
  const app = await NestFactory.createApplicationContext(AgentRuntimeModule.forRoot(config));
  app.enableShutdownHooks();
  new Logger('agent-runtime').log('ready');
}

bootstrap().catch((err: Error) => {
  console.error(`agent-runtime failed to start: ${err.message}`);
  process.exit(1);
});
