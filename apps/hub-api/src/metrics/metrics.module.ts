import { type MiddlewareConsumer, Module, type NestModule } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { QueueModule } from '@skillhub/queue';
import { AuthModule } from '../auth/auth.module';
import { MetricsController } from './metrics.controller';
import { MetricsService } from './metrics.service';

@Module({ imports: [AuthModule, QueueModule], controllers: [MetricsController], providers: [MetricsService] })
export class MetricsModule implements NestModule {
  constructor(private readonly metrics: MetricsService) {}

  configure(consumer: MiddlewareConsumer): void {
    consumer
      .apply((req: Request, res: Response, next: NextFunction) => {
        const end = this.metrics.httpDuration.startTimer({ method: req.method });
        // Express knows the matched route pattern only once the handler ran.
        res.on('finish', () =>
          end({
            route: (req.route as { path?: string } | undefined)?.path ?? 'unmatched',
            status: String(res.statusCode),
          }),
        );
        next();
      })
      .forRoutes('*');
  }
}
