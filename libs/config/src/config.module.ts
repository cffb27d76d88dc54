import { type DynamicModule, Module } from '@nestjs/common';
import type { HubConfig } from './env.schema';

/** Injection token for the validated configuration. */
export const HUB_CONFIG = Symbol('HUB_CONFIG');

/**
 * Provides the configuration each `main.ts` validated before creating the app,
 * so a bad variable stops the process before anything connects or listens.
 */
@Module({})
export class ConfigModule {
  static forRoot(config: HubConfig): DynamicModule {
    return {
      module: ConfigModule,
      global: true,
      providers: [{ provide: HUB_CONFIG, useValue: config }],
      exports: [HUB_CONFIG],
    };
  }
}
