import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';

export class PublicKeyDto {
  @ApiProperty({ description: 'SHA-256 of the SPKI public key, hex.' }) keyid: string;
  @ApiProperty({ example: 'ed25519' }) algorithm: 'ed25519';
  @ApiProperty() public_key_pem: string;
  @ApiProperty() not_before: string;
  @ApiProperty({
    nullable: true,
    type: String,
    description: 'Set once the key was retired; it still verifies what it signed before.',
  })
  not_after: string | null;
}

export class KeysResponseDto {
  @ApiProperty({ type: [PublicKeyDto] }) keys: PublicKeyDto[];
}

export class CheckpointDto {
  @ApiProperty() origin: string;
  @ApiProperty() tree_size: number;
  @ApiProperty({ description: 'RFC 6962 root, hex.' }) root_hash: string;
  @ApiProperty({ description: 'The signed checkpoint in C2SP signed-note form.' }) note: string;
}

export class LogEntryDto {
  @ApiProperty() index: number;
  @ApiProperty({ enum: ['certification', 'revocation'] }) kind: string;
  @ApiProperty({ description: 'The exact text hashed into the leaf.' }) leaf_data: string;
  @ApiProperty() leaf_hash: string;
  @ApiProperty({ type: 'object', additionalProperties: true }) summary: object;
}

export class ProofDto {
  @ApiProperty({ type: [String], description: 'Hashes, hex, in RFC 9162 order.' }) hashes: string[];
  @ApiProperty() tree_size: number;
  @ApiProperty({ description: 'Root of the tree the proof is for, hex.' }) root_hash: string;
}

export class InclusionQueryDto {
  @ApiProperty({ type: 'integer', minimum: 0, description: 'The entry.' })
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(Number.MAX_SAFE_INTEGER)
  index: number;

  @ApiProperty({ type: 'integer', minimum: 1, description: 'The size of the tree the proof is for.' })
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  tree_size: number;
}

export class ConsistencyQueryDto {
  @ApiProperty({ type: 'integer', minimum: 1 })
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  first: number;

  @ApiProperty({ type: 'integer', minimum: 1 })
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  second: number;
}

export class CertificateResponseDto {
  @ApiProperty({
    description: 'DSSE envelope: payloadType, payload (base64 statement), signatures.',
    type: 'object',
    additionalProperties: true,
  })
  envelope: object;
  @ApiProperty() key_id: string;
  @ApiProperty() log_index: number;
  @ApiProperty() issued_at: string;
  @ApiProperty() expires_at: string;
  @ApiProperty({ type: CheckpointDto }) checkpoint: CheckpointDto;
  @ApiProperty({ type: [String], description: "Inclusion proof of the entry in the checkpoint's tree." })
  inclusion_proof: string[];
}

export class RevokeRequestDto {
  @ApiProperty({ description: 'Why, shown to users and recorded in the log.', minLength: 3, maxLength: 1000 })
  @IsString()
  @MinLength(3)
  @MaxLength(1000)
  reason: string;
}

export class KazmaSecretRequestDto {
  @ApiProperty({ description: "The namespace's Kazma KAZMA_SECRET (stored sealed; never returned).", minLength: 16 })
  @IsString()
  @MinLength(16)
  @MaxLength(512)
  secret: string;
}
