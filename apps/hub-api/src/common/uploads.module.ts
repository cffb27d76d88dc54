import { Module } from '@nestjs/common';
import { MulterModule } from '@nestjs/platform-express';
import { HUB_CONFIG, type HubConfig } from '@skillhub/config';

/** Multipart uploads stay in memory and stop at the bundle size limit (413), like raw bodies. */
@Module({
  imports: [
    MulterModule.registerAsync({
      inject: [HUB_CONFIG],
      useFactory: (config: HubConfig) => ({
        limits: { fileSize: config.BUNDLE_MAX_COMPRESSED_BYTES, files: 1, fields: 4, parts: 5 },
      }),
    }),
  ],
  exports: [MulterModule],
})
export class UploadsModule {}
