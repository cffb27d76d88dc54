export { kazmaChecksum, kazmaSignature, verifyKazmaSignature, KAZMA_SIGNATURE_FIELDS } from './kazma-hmac';
export type { KazmaVerification, KazmaVerificationInput } from './kazma-hmac';
export { sealSecret, openSecret, parseSecretKey } from './secret-box';
export { generateHubKey, keyId, loadPrivateKey, publicKeyFromPem, type HubKeyPair } from './hub-key';
export { pae, signEnvelope, verifyEnvelope, type DsseEnvelope, type DsseSignature, type TrustedKey } from './dsse';
export {
  CERTIFICATE_LEVELS,
  CERTIFICATE_PAYLOAD_TYPE,
  SERVER_LAUNCHES,
  SERVER_TRANSPORTS,
  decodeStatement,
  encodeStatement,
  manifestSha256,
  signCertificate,
  verifyCertificate,
  type CertificateLevel,
  type CertificateStatement,
  type CertifiedServer,
  type ServerLock,
  type PinnedPackage,
} from './certificate-statement';
export { canonicalJson } from './canonical-json';
export { verifyBundleCertificate, type BundleCertificateCheck } from './bundle-certificate';
export {
  consistencyProof,
  consistencyProofFrom,
  frontierAppend,
  frontierOf,
  frontierRoot,
  inclusionProof,
  inclusionProofFrom,
  leafHash,
  merkleRoot,
  subtreesRead,
  verifyConsistency,
  verifyInclusion,
  type Subtree,
  type SubtreeSource,
} from './merkle';
export { openNote, signNote } from './signed-note';
export { signCheckpoint, verifyCheckpoint, type Checkpoint } from './checkpoint';
export {
  REVOCATIONS_PAYLOAD_TYPE,
  revocationOf,
  verifyRevocationList,
  type RevocationList,
  type RevokedVersion,
} from './revocation-list';
export {
  verifyInstallation,
  type InstallRefusal,
  type InstallVerdict,
  type InstallVerificationInput,
  type ServedCertificate,
  type StoredCheckpoint,
} from './install-verifier';
export * from './signing.errors';
export {
  PUBLISHER_PAYLOAD_TYPE,
  PUBLISHER_SIGNATURE_FILE,
  signPublisherFiles,
  verifyPublisherSignature,
  type PublisherStatement,
  type PublisherVerdict,
  type SignedFile,
} from './publisher-signature';
