/**
 * Which IP addresses a sandboxed server may be connected to: public unicast only. Loopback, private,
 * link-local (and so cloud metadata at 169.254.169.254 and fd00:ec2::254), CGNAT, multicast,
 * documentation, benchmarking and reserved ranges are refused, and so are IPv6 forms that embed an
 * IPv4 address (mapped, NAT64, 6to4, Teredo) unless the embedded address is itself public. Pure.
 */
import { BlockList, isIP } from 'node:net';

const V4_REFUSED: ReadonlyArray<[string, number, string]> = [
  ['0.0.0.0', 8, '"this network"'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'shared address space (CGNAT)'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local (cloud metadata lives here)'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'IETF protocol assignments'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.88.99.0', 24, '6to4 relay anycast'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved (and broadcast)'],
];

const V6_REFUSED: ReadonlyArray<[string, number, string]> = [
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  ['::', 96, 'IPv4-compatible (deprecated)'],
  ['100::', 64, 'discard-only'],
  ['2001:db8::', 32, 'documentation'],
  ['2001:10::', 28, 'ORCHID'],
  ['fc00::', 7, 'unique local (private; fd00:ec2::254 is cloud metadata)'],
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'site-local (deprecated)'],
  ['ff00::', 8, 'multicast'],
];

const refusedV4 = V4_REFUSED.map(([network, prefix, why]) => {
  const list = new BlockList();
  list.addSubnet(network, prefix, 'ipv4');
  return { list, why };
});
const refusedV6 = V6_REFUSED.map(([network, prefix, why]) => {
  const list = new BlockList();
  list.addSubnet(network, prefix, 'ipv6');
  return { list, why };
});

/** Why `address` may not be connected to, or null when it is a public unicast address. */
export const refusedAddress = (address: string): string | null => {
  const family = isIP(address);
  if (family === 4) return refusedV4.find(({ list }) => list.check(address, 'ipv4'))?.why ?? null;
  if (family !== 6) return 'not an IP address';
  const embedded = embeddedV4(address);
  if (embedded !== null) {
    const why = refusedAddress(embedded);
    return why === null ? null : `${why} (as ${embedded} inside an IPv6 address)`;
  }
  return refusedV6.find(({ list }) => list.check(address, 'ipv6'))?.why ?? null;
};

/** The IPv4 address an IPv6 form carries: mapped (::ffff:a.b.c.d), NAT64 (64:ff9b::/96), 6to4 (2002::/16), Teredo (2001::/32). */
const embeddedV4 = (address: string): string | null => {
  const groups = expand(address);
  const v4 = (high: number, low: number): string => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
  const zero = (from: number, to: number): boolean => groups.slice(from, to).every((group) => group === 0);
  if (zero(0, 5) && groups[5] === 0xffff) return v4(groups[6]!, groups[7]!);
  if (groups[0] === 0x64 && groups[1] === 0xff9b && zero(2, 6)) return v4(groups[6]!, groups[7]!);
  if (groups[0] === 0x2002) return v4(groups[1]!, groups[2]!);
  // Teredo: the client's address, every bit inverted, in the last 32 bits.
  if (groups[0] === 0x2001 && groups[1] === 0) return v4(~groups[6]! & 0xffff, ~groups[7]! & 0xffff);
  return null;
};

/** The eight 16-bit groups of an IPv6 address (a trailing dotted IPv4 part included); `isIP` has vouched for it. */
const expand = (address: string): number[] => {
  let text = address.replace(/%.*$/, '').toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, null];
  const parse = (part: string | null | undefined): number[] =>
    part ? part.split(':').map((group) => parseInt(group, 16)) : [];
  const front = parse(head);
  const back = parse(tail);
  return tail === null ? front : [...front, ...new Array<number>(8 - front.length - back.length).fill(0), ...back];
};
