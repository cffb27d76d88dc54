import { refusedAddress } from './address-policy';

describe('refusedAddress', () => {
  it('lets public unicast addresses through, IPv4 and IPv6', () => {
    for (const address of ['1.1.1.1', '8.8.8.8', '104.16.0.1', '2606:4700::1111', '2a00:1450:4001::200e']) {
      expect([address, refusedAddress(address)]).toEqual([address, null]);
    }
  });

  it('refuses loopback, private, link-local (metadata), CGNAT, multicast and reserved ranges', () => {
    const refused = [
      '127.0.0.1',
      '127.255.0.9',
      '0.0.0.0',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '224.0.0.251',
      '255.255.255.255',
      '198.18.0.1',
      '::1',
      '::',
      'fe80::1',
      'fc00::1',
      'fd00:ec2::254',
      'ff02::1',
    ];
    for (const address of refused) expect([address, refusedAddress(address)]).not.toEqual([address, null]);
    expect(refusedAddress('169.254.169.254')).toContain('metadata');
    expect(refusedAddress('100.64.0.1')).toContain('CGNAT');
  });

  it('judges IPv6 forms that carry an IPv4 address by that address', () => {
    expect(refusedAddress('::ffff:127.0.0.1')).toContain('loopback');
    expect(refusedAddress('::ffff:7f00:1')).toContain('loopback');
    expect(refusedAddress('64:ff9b::a9fe:a9fe')).toContain('link-local');
    expect(refusedAddress('2002:c0a8:0101::1')).toContain('private');
    expect(refusedAddress('::ffff:8.8.8.8')).toBeNull();
    expect(refusedAddress('2002:0808:0808::1')).toBeNull();
  });

  it('refuses what is not an address at all', () => {
    expect(refusedAddress('localhost')).toBe('not an IP address');
    expect(refusedAddress('1.1.1')).toBe('not an IP address');
  });
});
