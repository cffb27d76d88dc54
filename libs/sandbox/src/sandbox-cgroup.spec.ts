import { cgroupLayout } from './sandbox-cgroup';

/** /proc/self/mountinfo lines as the kernel writes them (mount point 5th, fs type after the ` - `). */
const mount = (point: string, type: string, options: string, rw = 'rw'): string =>
  `30 25 0:26 / ${point} ${rw},nosuid,nodev,noexec,relatime shared:9 - ${type} ${type} ${rw},${options}`;

describe('cgroupLayout', () => {
  it("finds the v1 pids, memory and cpu hierarchies, under this process's own groups", () => {
    const layout = cgroupLayout({
      mountinfo: [
        mount('/sys/fs/cgroup', 'tmpfs', 'mode=755'),
        mount('/sys/fs/cgroup/cpu', 'cgroup', 'cpu'),
        mount('/sys/fs/cgroup/memory', 'cgroup', 'memory'),
        mount('/sys/fs/cgroup/pids', 'cgroup', 'pids'),
        mount('/sys/fs/cgroup/unified', 'cgroup2', 'nsdelegate'),
      ].join('\n'),
      cgroup: ['8:pids:/', '4:memory:/process_api/abc', '1:cpu:/', '0::/'].join('\n'),
      // The development machines' v2 hierarchy holds only hugetlb.
      controllersOf: () => ['hugetlb'],
    });

    expect(layout).toEqual({
      layout: 'v1',
      roots: {
        pids: '/sys/fs/cgroup/pids/skillhub-sandboxes',
        memory: '/sys/fs/cgroup/memory/process_api/abc/skillhub-sandboxes',
        cpu: '/sys/fs/cgroup/cpu/skillhub-sandboxes',
      },
    });
  });

  it('prefers cgroup v2 when its hierarchy delegates pids and memory', () => {
    const layout = cgroupLayout({
      mountinfo: mount('/sys/fs/cgroup', 'cgroup2', 'nsdelegate'),
      cgroup: '0::/system.slice/hub.service',
      controllersOf: (folder) =>
        folder === '/sys/fs/cgroup/system.slice/hub.service' ? ['cpu', 'memory', 'pids'] : [],
    });

    const folder = '/sys/fs/cgroup/system.slice/hub.service/skillhub-sandboxes';
    expect(layout).toEqual({ layout: 'v2', roots: { pids: folder, memory: folder, cpu: folder } });
  });

  it('says why when neither layout offers pids and memory', () => {
    const layout = cgroupLayout({
      mountinfo: mount('/sys/fs/cgroup/pids', 'cgroup', 'pids', 'ro'),
      cgroup: '8:pids:/',
      controllersOf: () => [],
    });

    expect(layout).toEqual({ reason: expect.stringContaining('neither a cgroup v2 hierarchy') });
  });
});
