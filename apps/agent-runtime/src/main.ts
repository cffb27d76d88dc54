/**
 * agent-runtime: checks that KAZMA_HUB_URL answers, connects the MCP servers of its
 * RUNTIME_CONFIG and serves their tools behind the gate. Installing certified skills
 * from the hub (verified offline) is still to come.
 */
import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { loadConfigOrExit } from '@skillhub/config';
import { AgentRuntimeModule } from './agent-runtime.module';
import { StderrLogger } from './stderr-logger';

async function bootstrap(): Promise<void> {
  const config = loadConfigOrExit();
  const app = await NestFactory.createApplicationContext(AgentRuntimeModule.forRoot(config), {
    logger: new StderrLogger(),
  });
  app.enableShutdownHooks();
  new Logger('agent-runtime').log('ready');
}

bootstrap().catch((err: Error) => {
  console.error(`agent-runtime failed to start: ${err.message}`);
  process.exit(1);
});
