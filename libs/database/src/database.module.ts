import { Global, Module } from '@nestjs/common';
import { REPOSITORIES } from './repositories';

/**
 * The repositories, for every module of the process. Each takes the TypeORM `DataSource` the
 * app's `TypeOrmModule.forRoot` provides; services reach the database only through them.
 */
@Global()
@Module({ providers: REPOSITORIES, exports: REPOSITORIES })
export class DatabaseModule {}
