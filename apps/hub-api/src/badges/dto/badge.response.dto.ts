import { ApiProperty } from '@nestjs/swagger';

/** The shields.io endpoint-badge schema (`https://img.shields.io/endpoint?url=…`). */
export class ShieldsEndpointDto {
  @ApiProperty({ enum: [1], example: 1 }) schemaVersion: 1;
  @ApiProperty({ example: 'skill hub' }) label: string;
  @ApiProperty({ example: 'certified · standard' }) message: string;
  @ApiProperty({ example: 'brightgreen' }) color: string;
}
