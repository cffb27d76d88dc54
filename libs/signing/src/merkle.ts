/**
 * The transparency log's Merkle tree (RFC 6962 §2.1, verification as in RFC 9162 §2.1.3.2 and
 * §2.1.4.2). Leaves and nodes are hashed with distinct prefixes so a node can never pass for a
 * leaf. Sizes and indexes are plain numbers: arithmetic, never 32-bit bitwise operators.
 */
import { sha256 } from '@skillhub/bundle';
import { digestsEqual } from './digest';
import { ProofOutOfRangeError } from './signing.errors';

const HASH_BYTES = 32;
const LEAF_PREFIX = Buffer.from([0x00]);
const NODE_PREFIX = Buffer.from([0x01]);

export function leafHash(data: Buffer): Buffer {
  return sha256(LEAF_PREFIX, data);
}

const nodeHash = (left: Buffer, right: Buffer): Buffer => sha256(NODE_PREFIX, left, right);

/** MTH: the root of the tree over `leafHashes`; SHA-256 of nothing for the empty tree. */
export function merkleRoot(leafHashes: readonly Buffer[]): Buffer {
  return leafHashes.length === 0 ? sha256() : subtreeRoot(leafHashes, 0, leafHashes.length);
}

/**
 * Where proofs read subtree roots from: the root of the perfect subtree of 2^level leaves
 * starting at leaf `index * 2^level` (level 0: the leaf hash). Proofs only ever need such
 * aligned perfect subtrees, so a log that stores them proves in O(log² n) reads.
 */
export type SubtreeSource = (level: number, index: number) => Buffer;

/** PATH(m, D[n]): the sibling hashes from leaf `index` up to the root, lowest first. */
export function inclusionProof(index: number, leafHashes: readonly Buffer[]): Buffer[] {
  return inclusionProofFrom(index, leafHashes.length, fromLeaves(leafHashes));
}

export function inclusionProofFrom(index: number, treeSize: number, source: SubtreeSource): Buffer[] {
  if (!isSize(treeSize) || !Number.isSafeInteger(index) || index < 0 || index >= treeSize) {
    throw new ProofOutOfRangeError(`Leaf ${index} is not in a tree of ${treeSize} leaves`);
  }
  const path = (m: number, start: number, end: number): Buffer[] => {
    if (end - start === 1) return [];
    const k = splitPoint(end - start);
    return m < k
      ? [...path(m, start, start + k), rangeRoot(start + k, end, source)]
      : [...path(m - k, start + k, end), rangeRoot(start, start + k, source)];
  };
  return path(index, 0, treeSize);
}

/**
 * PROOF(m, D[n]) that the tree of the first `oldSize` leaves is a prefix of this one. Empty when
 * `oldSize` is 0 or the whole tree: both are consistent by definition.
 */
export function consistencyProof(oldSize: number, leafHashes: readonly Buffer[]): Buffer[] {
  return consistencyProofFrom(oldSize, leafHashes.length, fromLeaves(leafHashes));
}

export function consistencyProofFrom(oldSize: number, newSize: number, source: SubtreeSource): Buffer[] {
  if (!isSize(newSize) || !Number.isSafeInteger(oldSize) || oldSize < 0 || oldSize > newSize) {
    throw new ProofOutOfRangeError(`No tree of ${oldSize} leaves precedes a tree of ${newSize}`);
  }
  if (oldSize === 0) return [];
  // `complete` is true while the old tree is still a whole subtree of the one being walked.
  const subproof = (m: number, start: number, end: number, complete: boolean): Buffer[] => {
    if (m === end - start) return complete ? [] : [rangeRoot(start, end, source)];
    const k = splitPoint(end - start);
    return m <= k
      ? [...subproof(m, start, start + k, complete), rangeRoot(start + k, end, source)]
      : [...subproof(m - k, start + k, end, false), rangeRoot(start, start + k, source)];
  };
  return subproof(oldSize, 0, newSize, true);
}

/** The aligned perfect subtrees a proof reads, in the order it reads them (to fetch them in one go). */
export function subtreesRead(proof: (source: SubtreeSource) => Buffer[]): Array<{ level: number; index: number }> {
  const read: Array<{ level: number; index: number }> = [];
  const placeholder = Buffer.alloc(HASH_BYTES);
  proof((level, index) => {
    read.push({ level, index });
    return placeholder;
  });
  return read;
}

/** The root of an aligned perfect subtree: 2^level leaves from leaf `index * 2^level`. */
export interface Subtree {
  level: number;
  index: number;
  hash: Buffer;
}

/**
 * The tree's frontier (compact range): the roots of its perfect subtrees, largest (leftmost)
 * first, one per set bit of its size. It is all an append needs: the next frontier and the new
 * root cost O(log n) hashes, without reading the leaves. `completed` lists the perfect subtrees
 * (level 1 and up) the new leaf completes, for a log that stores them to serve proofs.
 */
export function frontierAppend(
  frontier: readonly Buffer[],
  size: number,
  leaf: Buffer,
): { frontier: Buffer[]; completed: Subtree[] } {
  assertFrontier(frontier, size);
  const next = [...frontier];
  const completed: Subtree[] = [];
  let node = leaf;
  // Each trailing 1-bit of the old size is a subtree of the new leaf's size, now completed.
  for (let n = size, level = 1; isOdd(n); n = half(n), level++) {
    node = nodeHash(next.pop()!, node);
    completed.push({ level, index: Math.floor(size / 2 ** level), hash: node });
  }
  next.push(node);
  return { frontier: next, completed };
}

/** MTH of the tree the frontier describes: the subtree roots folded from the right. */
export function frontierRoot(frontier: readonly Buffer[], size: number): Buffer {
  assertFrontier(frontier, size);
  if (frontier.length === 0) return sha256();
  return frontier.slice(0, -1).reduceRight((right, left) => nodeHash(left, right), frontier[frontier.length - 1]);
}

/** The frontier of a tree from all its leaves (for a log that has no stored frontier yet). */
export function frontierOf(leafHashes: readonly Buffer[]): Buffer[] {
  return leafHashes.reduce<Buffer[]>((frontier, leaf, size) => frontierAppend(frontier, size, leaf).frontier, []);
}

function assertFrontier(frontier: readonly Buffer[], size: number): void {
  let bits = 0;
  for (let n = size; n > 0; n = half(n)) bits += n % 2;
  if (!isSize(size) || frontier.length !== bits || !frontier.every(isHash)) {
    throw new ProofOutOfRangeError(
      `A frontier of ${frontier.length} hashes does not describe a tree of ${size} leaves`,
    );
  }
}

/** RFC 9162 §2.1.3.2. False, never a throw, for any malformed input. */
export function verifyInclusion(
  leaf: Buffer,
  index: number,
  treeSize: number,
  proof: readonly Buffer[],
  root: Buffer,
): boolean {
  if (!isSize(index) || !isSize(treeSize) || index >= treeSize) return false;
  if (!isHash(leaf) || !isHash(root) || !proof.every(isHash)) return false;
  let fn = index;
  let sn = treeSize - 1;
  let r = leaf;
  for (const p of proof) {
    if (sn === 0) return false;
    if (isOdd(fn) || fn === sn) {
      r = nodeHash(p, r);
      while (!isOdd(fn) && fn !== 0) [fn, sn] = [half(fn), half(sn)];
    } else {
      r = nodeHash(r, p);
    }
    [fn, sn] = [half(fn), half(sn)];
  }
  return sn === 0 && digestsEqual(r, root);
}

/**
 * RFC 9162 §2.1.4.2, plus the two cases it leaves out: equal sizes (same root, empty proof) and
 * an empty old tree (its root is SHA-256 of nothing, empty proof). False for any malformed input.
 */
export function verifyConsistency(
  oldSize: number,
  newSize: number,
  oldRoot: Buffer,
  newRoot: Buffer,
  proof: readonly Buffer[],
): boolean {
  if (!isSize(oldSize) || !isSize(newSize) || oldSize > newSize) return false;
  if (!isHash(oldRoot) || !isHash(newRoot) || !proof.every(isHash)) return false;
  if (oldSize === newSize) return proof.length === 0 && digestsEqual(oldRoot, newRoot);
  if (oldSize === 0) return proof.length === 0 && digestsEqual(oldRoot, sha256());
  if (proof.length === 0) return false;
  // When the old tree is a complete subtree its root is the proof's implicit first element.
  const path = isPowerOfTwo(oldSize) ? [oldRoot, ...proof] : proof;
  let fn = oldSize - 1;
  let sn = newSize - 1;
  while (isOdd(fn)) [fn, sn] = [half(fn), half(sn)];
  let fr = path[0];
  let sr = path[0];
  for (const c of path.slice(1)) {
    if (sn === 0) return false;
    if (isOdd(fn) || fn === sn) {
      fr = nodeHash(c, fr);
      sr = nodeHash(c, sr);
      while (!isOdd(fn) && fn !== 0) [fn, sn] = [half(fn), half(sn)];
    } else {
      sr = nodeHash(sr, c);
    }
    [fn, sn] = [half(fn), half(sn)];
  }
  return sn === 0 && digestsEqual(fr, oldRoot) && digestsEqual(sr, newRoot);
}

/**
 * MTH(D[start:end]) for a range a proof walks: one aligned perfect subtree read from the
 * source, or split at RFC 6962's k into two such ranges.
 */
function rangeRoot(start: number, end: number, source: SubtreeSource): Buffer {
  const size = end - start;
  if (isPowerOfTwo(size) && start % size === 0) return source(levelOf(size), start / size);
  const k = splitPoint(size);
  return nodeHash(rangeRoot(start, start + k, source), rangeRoot(start + k, end, source));
}

const fromLeaves =
  (leafHashes: readonly Buffer[]): SubtreeSource =>
  (level, index) =>
    subtreeRoot(leafHashes, index * 2 ** level, (index + 1) * 2 ** level);

/** MTH(D[start:end]) for a non-empty range, recursing on index ranges rather than copied arrays. */
function subtreeRoot(leafHashes: readonly Buffer[], start: number, end: number): Buffer {
  if (end - start === 1) return leafHashes[start];
  const k = splitPoint(end - start);
  return nodeHash(subtreeRoot(leafHashes, start, start + k), subtreeRoot(leafHashes, start + k, end));
}

/** log2 of a power of two, counted rather than computed in floating point. */
function levelOf(powerOfTwo: number): number {
  let level = 0;
  for (let n = powerOfTwo; n > 1; n = half(n)) level++;
  return level;
}

/** RFC 6962's k: the largest power of two smaller than n (n > 1). */
function splitPoint(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

const isSize = (n: number): boolean => Number.isSafeInteger(n) && n >= 0;
const isHash = (hash: Buffer): boolean => Buffer.isBuffer(hash) && hash.length === HASH_BYTES;
const isOdd = (n: number): boolean => n % 2 === 1;
const half = (n: number): number => Math.floor(n / 2);
function isPowerOfTwo(n: number): boolean {
  let power = 1;
  while (power < n) power *= 2;
  return power === n;
}
