/**
 * agent-runtime: checks that KAZMA_HUB_URL answers, installs the certified skills of its
 * RUNTIME_CONFIG (verified offline), starts the servers their certificates let run in the
 * sandbox and the servers its operator configures, and serves their tools behind the gate.
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
