import { createHash } from 'node:crypto';
import {
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
  type SubtreeSource,
} from './merkle';
import { PROOF_OUT_OF_RANGE } from './signing.errors';

// ---- an independent reference: RFC 6962 §2.1 transcribed literally, on copied arrays ----

const H = (...parts: Buffer[]): Buffer => createHash('sha256').update(Buffer.concat(parts)).digest();
const LEAF = Buffer.from([0]);
const NODE = Buffer.from([1]);
const k = (n: number): number => 2 ** Math.floor(Math.log2(n - 1));

const MTH = (d: Buffer[]): Buffer => {
  if (d.length === 0) return H();
  if (d.length === 1) return H(LEAF, d[0]);
  return H(NODE, MTH(d.slice(0, k(d.length))), MTH(d.slice(k(d.length))));
};

const PATH = (m: number, d: Buffer[]): Buffer[] => {
  if (d.length === 1) return [];
  const split = k(d.length);
  return m < split
    ? [...PATH(m, d.slice(0, split)), MTH(d.slice(split))]
    : [...PATH(m - split, d.slice(split)), MTH(d.slice(0, split))];
};

const SUBPROOF = (m: number, d: Buffer[], b: boolean): Buffer[] => {
  if (m === d.length) return b ? [] : [MTH(d)];
  const split = k(d.length);
  return m <= split
    ? [...SUBPROOF(m, d.slice(0, split), b), MTH(d.slice(split))]
    : [...SUBPROOF(m - split, d.slice(split), false), MTH(d.slice(0, split))];
};

const PROOF = (m: number, d: Buffer[]): Buffer[] => SUBPROOF(m, d, true);

// ---- fixtures ----

const data = (n: number): Buffer[] => Array.from({ length: n }, (_, i) => Buffer.from(`entry ${i}`));
const hashesOf = (d: Buffer[]): Buffer[] => d.map(leafHash);
const hex = (hashes: Buffer[]): string[] => hashes.map((h) => h.toString('hex'));
const h = (text: string): Buffer => Buffer.from(text, 'hex');
const flipped = (hash: Buffer): Buffer => {
  const copy = Buffer.from(hash);
  copy[copy.length - 1] ^= 0x01;
  return copy;
};

// The leaves and tree heads of the certificate-transparency test data (RFC 6962 logs in Go and C++).
const CT_LEAVES = [
  '',
  '00',
  '10',
  '2021',
  '3031',
  '40414243',
  '5051525354555657',
  '606162636465666768696a6b6c6d6e6f',
].map(h);
const CT_ROOTS = [
  '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
  'fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125',
  'aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77',
  'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
  '4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4',
  '76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef',
  'ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c',
  '5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328',
];

describe('RFC 6962 hashing, against known vectors', () => {
  const leaves = hashesOf(CT_LEAVES);

  it('gives the empty tree the SHA-256 of nothing', () => {
    expect(merkleRoot([]).toString('hex')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  it.each(CT_ROOTS.map((root, i) => [i + 1, root] as const))(
    'gives the tree of %i leaves its known root',
    (n, root) => {
      expect(merkleRoot(leaves.slice(0, n)).toString('hex')).toBe(root);
    },
  );

  it('gives the known inclusion proof of leaf 0 in the tree of 8', () => {
    expect(hex(inclusionProof(0, leaves))).toEqual([
      '96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      '6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4',
    ]);
  });

  it.each([
    [
      1,
      8,
      [
        '96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7',
        '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
        '6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4',
      ],
    ],
    [
      6,
      8,
      [
        '0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a',
        'ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0',
        'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
      ],
    ],
    [
      2,
      5,
      [
        '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
        'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
      ],
    ],
  ])('gives the known consistency proof from %i to %i', (m, n, proof) => {
    expect(hex(consistencyProof(m, leaves.slice(0, n)))).toEqual(proof);
    expect(verifyConsistency(m, n, h(CT_ROOTS[m - 1]), h(CT_ROOTS[n - 1]), proof.map(h))).toBe(true);
  });
});

describe('merkleRoot', () => {
  it.each([...Array.from({ length: 65 }, (_, n) => n), 100, 1000])('equals the reference for %i leaves', (n) => {
    const d = data(n);
    expect(merkleRoot(hashesOf(d)).equals(MTH(d))).toBe(true);
  });
});

describe('frontier (incremental appends)', () => {
  it('gives the known roots of the CT vectors, appending one leaf at a time', () => {
    let frontier: Buffer[] = [];
    hashesOf(CT_LEAVES).forEach((leaf, size) => {
      frontier = frontierAppend(frontier, size, leaf).frontier;
      expect(frontierRoot(frontier, size + 1).toString('hex')).toBe(CT_ROOTS[size]);
    });
  });

  it('equals merkleRoot at every size up to 1,100, holding one hash per set bit of the size', () => {
    const leaves = hashesOf(data(1100));
    let frontier: Buffer[] = [];
    for (let size = 0; size < leaves.length; size++) {
      frontier = frontierAppend(frontier, size, leaves[size]!).frontier;
      const n = size + 1;
      expect(frontier).toHaveLength(n.toString(2).replace(/0/g, '').length);
      if (n <= 130 || n % 97 === 0 || n === leaves.length) {
        expect(frontierRoot(frontier, n).equals(merkleRoot(leaves.slice(0, n)))).toBe(true);
      }
    }
    expect(frontierOf(leaves).map((x) => x.toString('hex'))).toEqual(frontier.map((x) => x.toString('hex')));
    expect(frontierRoot([], 0).toString('hex')).toBe(merkleRoot([]).toString('hex'));
  });

  it('names the perfect subtrees each append completes, and proofs read from them equal proofs from the leaves', () => {
    const leaves = hashesOf(data(300));
    const stored = new Map<string, Buffer>(leaves.map((leaf, i) => [`0/${i}`, leaf]));
    let frontier: Buffer[] = [];
    for (let size = 0; size < leaves.length; size++) {
      const appended = frontierAppend(frontier, size, leaves[size]!);
      frontier = appended.frontier;
      for (const node of appended.completed) {
        const span = 2 ** node.level;
        expect(node.hash.equals(merkleRoot(leaves.slice(node.index * span, (node.index + 1) * span)))).toBe(true);
        stored.set(`${node.level}/${node.index}`, node.hash);
      }
    }
    expect(stored.size).toBe(2 * leaves.length - 4); // every perfect subtree of 300 leaves: 300 + 150 + 75 + 37 + 18 + 9 + 4 + 2 + 1
    const source: SubtreeSource = (level, index) => stored.get(`${level}/${index}`)!;
    for (const n of [1, 2, 3, 7, 8, 9, 100, 255, 256, 257, 300]) {
      const tree = leaves.slice(0, n);
      for (const i of [0, 1, Math.floor(n / 2), n - 1].filter((x) => x < n)) {
        expect(hex(inclusionProofFrom(i, n, source))).toEqual(hex(inclusionProof(i, tree)));
      }
      for (const m of [1, Math.floor(n / 3), n - 1, n].filter((x) => x >= 1)) {
        expect(hex(consistencyProofFrom(m, n, source))).toEqual(hex(consistencyProof(m, tree)));
      }
    }
  });

  it('reads O(log² n) subtrees for a proof, not the leaves', () => {
    // 1,000,000 leaves: a proof has at most 20 hashes; a right-edge one is read as at most 20 subtrees.
    for (const index of [0, 1, 524_287, 524_288, 999_999]) {
      const reads = subtreesRead((source) => inclusionProofFrom(index, 1_000_000, source));
      expect(reads.length).toBeLessThanOrEqual(20 * 20);
      expect(reads.length).toBeGreaterThan(0);
    }
    const consistency = subtreesRead((source) => consistencyProofFrom(333_333, 1_000_000, source));
    expect(consistency.length).toBeLessThanOrEqual(2 * 20 * 20);
  });

  it('refuses a frontier that does not fit the size (a corrupt stored state fails closed)', () => {
    const frontier = frontierOf(hashesOf(data(5)));
    expect(() => frontierRoot(frontier, 7)).toThrow(expect.objectContaining({ code: PROOF_OUT_OF_RANGE }));
    expect(() => frontierAppend(frontier, 4, leafHash(Buffer.from('x')))).toThrow(
      expect.objectContaining({ code: PROOF_OUT_OF_RANGE }),
    );
    expect(() => frontierRoot([Buffer.alloc(3), Buffer.alloc(32)], 5)).toThrow(
      expect.objectContaining({ code: PROOF_OUT_OF_RANGE }),
    );
  });
});

describe('inclusion proofs', () => {
  it.each(Array.from({ length: 64 }, (_, i) => i + 1))('prove and verify every leaf of a tree of %i', (n) => {
    const d = data(n);
    const leaves = hashesOf(d);
    const root = MTH(d);
    for (let i = 0; i < n; i++) {
      const proof = inclusionProof(i, leaves);
      expect(hex(proof)).toEqual(hex(PATH(i, d)));
      expect(verifyInclusion(leaves[i], i, n, proof, root)).toBe(true);

      expect(verifyInclusion(flipped(leaves[i]), i, n, proof, root)).toBe(false);
      expect(verifyInclusion(leaves[i], i, n, proof, flipped(root))).toBe(false);
      if (n > 1) {
        expect(verifyInclusion(leaves[i], (i + 1) % n, n, proof, root)).toBe(false);
        expect(verifyInclusion(leaves[i], i, n, proof.slice(0, -1), root)).toBe(false);
      }
      expect(verifyInclusion(leaves[i], i, n, [...proof, root], root)).toBe(false);
      proof.forEach((_, j) => {
        const tampered = proof.map((p, jj) => (jj === j ? flipped(p) : p));
        expect(verifyInclusion(leaves[i], i, n, tampered, root)).toBe(false);
      });
    }
  });

  it('refuses malformed input with false, not a throw', () => {
    const leaves = hashesOf(data(5));
    const root = merkleRoot(leaves);
    const proof = inclusionProof(2, leaves);
    expect(verifyInclusion(leaves[2], 5, 5, proof, root)).toBe(false);
    expect(verifyInclusion(leaves[2], -1, 5, proof, root)).toBe(false);
    expect(verifyInclusion(leaves[2], 2.5, 5, proof, root)).toBe(false);
    expect(verifyInclusion(leaves[2].subarray(1), 2, 5, proof, root)).toBe(false);
    expect(verifyInclusion(leaves[2], 2, 5, [proof[0].subarray(1), ...proof.slice(1)], root)).toBe(false);
    expect(verifyInclusion(leaves[2], 2, 5, proof, root.subarray(1))).toBe(false);
  });

  it('keeps leaves and inner nodes apart, so no entry can pass for a subtree (second preimage)', () => {
    const leaves = hashesOf(data(4));
    const root = merkleRoot(leaves);
    const rightHalf = H(NODE, leaves[2], leaves[3]);
    expect(verifyInclusion(H(NODE, leaves[0], leaves[1]), 0, 2, [rightHalf], root)).toBe(true); // the inner node itself…
    const forgedEntry = Buffer.concat([leaves[0], leaves[1]]); // …but no entry's leaf hash can equal it
    expect(verifyInclusion(leafHash(forgedEntry), 0, 2, [rightHalf], root)).toBe(false);
  });

  it.each([-1, 5, 1.5, Number.NaN])('refuses to prove leaf %p of 5 with SIGNING.PROOF_OUT_OF_RANGE', (index) => {
    expect(() => inclusionProof(index, hashesOf(data(5)))).toThrow(
      expect.objectContaining({ code: PROOF_OUT_OF_RANGE }),
    );
  });

  it('works past 32-bit sizes, where bitwise operators would overflow', () => {
    // A tree of 2^40 + 1 equal leaves: every perfect subtree of 2^j leaves has the same root R[j].
    const leaf = leafHash(Buffer.from('same'));
    const R = [leaf];
    for (let j = 1; j <= 40; j++) R.push(H(NODE, R[j - 1], R[j - 1]));
    const size = 2 ** 40 + 1;
    const root = H(NODE, R[40], leaf);
    expect(verifyInclusion(leaf, 2 ** 40, size, [R[40]], root)).toBe(true);
    expect(verifyInclusion(leaf, 2 ** 35 + 7, size, [...R.slice(0, 40), leaf], root)).toBe(true);
    expect(verifyInclusion(leaf, 2 ** 35 + 7, size - 1, R.slice(0, 40), R[40])).toBe(true);
    expect(verifyInclusion(leaf, 2 ** 35 + 7, size, R.slice(0, 40), root)).toBe(false);
  });
});

describe('consistency proofs', () => {
  const pairs = Array.from({ length: 32 }, (_, i) => i + 1).flatMap((n) =>
    Array.from({ length: n + 1 }, (_, m) => [m, n] as const),
  );

  // Sizes are not perturbed here: one path shape can serve several sizes, and it is the root,
  // signed together with its size in a checkpoint, that binds the size.
  it.each(pairs)('prove and verify that the tree of %i is a prefix of the tree of %i', (m, n) => {
    const d = data(n);
    const leaves = hashesOf(d);
    const oldRoot = MTH(d.slice(0, m));
    const newRoot = MTH(d);
    const proof = consistencyProof(m, leaves);
    expect(hex(proof)).toEqual(m === 0 ? [] : hex(PROOF(m, d)));
    expect(verifyConsistency(m, n, oldRoot, newRoot, proof)).toBe(true);

    expect(verifyConsistency(m, n, flipped(oldRoot), newRoot, proof)).toBe(false);
    // Every tree extends the empty one, so from size 0 there is nothing to check the new root against.
    if (m > 0) expect(verifyConsistency(m, n, oldRoot, flipped(newRoot), proof)).toBe(false);
    expect(verifyConsistency(m, n, oldRoot, newRoot, [...proof, newRoot])).toBe(false);
    if (proof.length > 0) expect(verifyConsistency(m, n, oldRoot, newRoot, proof.slice(0, -1))).toBe(false);
    proof.forEach((_, j) => {
      const tampered = proof.map((p, jj) => (jj === j ? flipped(p) : p));
      expect(verifyConsistency(m, n, oldRoot, newRoot, tampered)).toBe(false);
    });
  });

  it('detects rewritten history: a tree that changed an old leaf is not consistent with the old root', () => {
    const d = data(10);
    const rewritten = [...d.slice(0, 3), Buffer.from('rewritten'), ...d.slice(4)];
    const proof = consistencyProof(6, hashesOf(rewritten));
    expect(verifyConsistency(6, 10, MTH(d.slice(0, 6)), MTH(rewritten), proof)).toBe(false);
  });

  it('treats the empty tree as a prefix of every tree, only under the empty root', () => {
    const leaves = hashesOf(data(3));
    expect(verifyConsistency(0, 3, merkleRoot([]), merkleRoot(leaves), [])).toBe(true);
    expect(verifyConsistency(0, 0, merkleRoot([]), merkleRoot([]), [])).toBe(true);
    expect(verifyConsistency(0, 3, leaves[0], merkleRoot(leaves), [])).toBe(false);
  });

  it('refuses malformed input with false, not a throw', () => {
    const leaves = hashesOf(data(7));
    const root3 = merkleRoot(leaves.slice(0, 3));
    const root7 = merkleRoot(leaves);
    const proof = consistencyProof(3, leaves);
    expect(verifyConsistency(7, 3, root7, root3, proof)).toBe(false);
    expect(verifyConsistency(-1, 7, root3, root7, proof)).toBe(false);
    expect(verifyConsistency(3.5, 7, root3, root7, proof)).toBe(false);
    expect(verifyConsistency(3, 7, root3, root7, [])).toBe(false);
    expect(verifyConsistency(3, 7, root3.subarray(1), root7, proof)).toBe(false);
    expect(verifyConsistency(3, 7, root3, root7, [Buffer.alloc(31), ...proof.slice(1)])).toBe(false);
  });

  it.each([-1, 6, 0.5])('refuses a proof from size %p to 5 with SIGNING.PROOF_OUT_OF_RANGE', (m) => {
    expect(() => consistencyProof(m, hashesOf(data(5)))).toThrow(expect.objectContaining({ code: PROOF_OUT_OF_RANGE }));
  });
});
