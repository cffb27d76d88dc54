import { ApiProperty } from '@nestjs/swagger';

/** The shields.io endpoint-badge schema (`https://img.shields.io/endpoint?url=…`). */
export class ShieldsEndpointDto {
  @ApiProperty({ example: 1 }) schemaVersion: 1;
  @ApiProperty() label: string;
  @ApiProperty() message: string;
  @ApiProperty() color: string;
}
