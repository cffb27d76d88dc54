import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { EXAMPLE } from '../../common/dto/api-examples';

export class RegisterPublisherKeyRequestDto {
  @ApiProperty({
    description: 'The Ed25519 public key, SPKI PEM (`skillhub keys generate` writes it as <name>.pub).',
    maxLength: 1000,
    example: EXAMPLE.publicKeyPem,
  })
  @IsString()
  @MaxLength(1000)
  public_key: string;

  @ApiPropertyOptional({
    description: 'A label, e.g. the machine or person holding the private key.',
    type: String,
    nullable: true,
    maxLength: 100,
    example: 'release laptop',
  })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  @Matches(/^[\p{L}\p{N} ._@-]*$/u, { message: 'name may hold letters, digits, spaces and . _ @ -' })
  name?: string | null;
}

export class PublisherKeyDto {
  @ApiProperty({ description: 'SHA-256 of the SPKI public key, hex; signatures name it.', example: EXAMPLE.keyId })
  key_id: string;
  @ApiProperty({ example: 'release laptop' }) name: string;
  @ApiProperty({ example: EXAMPLE.publicKeyPem }) public_key_pem: string;
  @ApiProperty({ example: '2025-10-01T08:00:00.000Z' }) created_at: string;
  @ApiProperty({
    nullable: true,
    type: String,
    description: 'Set once removed: from then on, signatures by this key do not verify.',
    example: null,
  })
  removed_at: string | null;
}

export class PublisherKeysResponseDto {
  @ApiProperty({ example: 'acme-labs' }) namespace: string;
  @ApiProperty({
    description: 'True when the namespace has an active key: then every version must carry a publisher signature.',
    example: true,
  })
  signatures_required: boolean;
  @ApiProperty({ type: [PublisherKeyDto] }) keys: PublisherKeyDto[];
}
