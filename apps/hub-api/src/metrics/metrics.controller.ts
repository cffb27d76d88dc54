import { Controller, Get, Header, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import { AuthGuard, RequireAdmin } from '../auth/auth.guard';
import { ApiProblems, TOKEN_SCOPED } from '../common/dto/api-problems.decorator';
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
  @ApiProduces('text/plain')
  @ApiOkResponse({
    description: 'Prometheus text exposition format (version 0.0.4).',
    schema: { type: 'string', example: '# TYPE skillhub_publishes_total counter\nskillhub_publishes_total 12\n' },
  })
  @ApiProblems(TOKEN_SCOPED)
  scrape(): Promise<string> {
    return this.metrics.registry.metrics();
  }
}
