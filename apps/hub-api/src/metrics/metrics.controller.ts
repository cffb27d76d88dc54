import { Controller, Get, Header, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AuthGuard, RequireAdmin } from '../auth/auth.guard';
import { MetricsService } from './metrics.service';

@ApiTags('operations')
@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: MetricsService) {}

  @Get()
  @UseGuards(AuthGuard)
  @RequireAdmin()
  @ApiBearerAuth()
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  @ApiOperation({ summary: 'Prometheus metrics (operator token)' })
  @ApiOkResponse({ description: 'Prometheus text exposition format.' })
  scrape(): Promise<string> {
    return this.metrics.registry.metrics();
  }
}
