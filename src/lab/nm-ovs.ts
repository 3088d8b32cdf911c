// NetworkManager's Open vSwitch device plugin for lab hosts. Debian builds network-manager without it
// (debian/rules: --disable-ovs), and the plugin alone is not enough: the NetworkManager binary exports
// only the symbols its built plugins use (tools/create-exports-NetworkManager.sh), and Debian's lacks 56
// the OVS plugin needs (nm_setting_ovs_*, nm_device_unrealize, ...). So both are built from Debian's own
// source package of exactly the rootfs's version, its patches applied, Debian's configure choices plus
// ovs, inside a throw-away mmdebstrap build root (nothing is installed on the machine); only the daemon
// and the plugin are built and kept, cached under NM_OVS_CACHE_DIR/<version>-b<BUILD_VERSION>.
import { chmod, copyFile, mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { execa } from 'execa';
import { CommandError } from '../errors.js';
import { machineMirrorLines } from './apt-sources.js';
import { withLock } from './fs-util.js';
import { NM_OVS_CACHE_DIR } from './names.js';
import { RELEASE } from './rootfs.js';
import { run } from './run.js';

/** Bump when the build changes: it is part of the cache key. */
export const NM_OVS_BUILD_VERSION = 1;

/** What the build root needs to configure NetworkManager as Debian does, and to build the daemon. */
export const BUILD_PACKAGES = [
  'meson', 'ninja-build', 'pkg-config', 'xsltproc', 'python3', 'gettext', 'binutils',
  'libglib2.0-dev', 'libudev-dev', 'libsystemd-dev', 'libjansson-dev', 'libgnutls28-dev', 'uuid-dev', 'libndp-dev',
  'libselinux1-dev', 'libaudit-dev', 'libpsl-dev', 'libcurl4-gnutls-dev', 'libmm-glib-dev', 'libnewt-dev',
  'libreadline-dev', 'libteam-dev', 'libbluetooth-dev', 'ppp-dev', 'libdbus-1-dev', 'libpolkit-gobject-1-dev',
  'mobile-broadband-provider-info', 'systemd', 'udev', 'dbus',
];

/** Debian's configure flags (debian/rules of 1.42) as meson options, plus ovs; no docs, tests, bindings. */
export const MESON_OPTIONS = [
  '--prefix=/usr', '--libdir=lib/x86_64-linux-gnu', '--libexecdir=lib/NetworkManager', '--sysconfdir=/etc', '--localstatedir=/var',
  '--buildtype=plain', '-Dsystemdsystemunitdir=/lib/systemd/system', '-Dudev_dir=/lib/udev', '-Ddbus_conf_dir=/usr/share/dbus-1/system.d',
  '-Dpppd=/usr/sbin/pppd', '-Dnft=/usr/sbin/nft', '-Diptables=/usr/sbin/iptables', '-Dresolvconf=/sbin/resolvconf',
  '-Ddhclient=/sbin/dhclient', '-Ddnsmasq=/usr/sbin/dnsmasq', '-Dpolkit_agent_helper_1=/usr/lib/policykit-1/polkit-agent-helper-1',
  '-Dcrypto=gnutls', '-Dsession_tracking=systemd', '-Dsuspend_resume=systemd', '-Dmodem_manager=true', '-Dnmtui=true', '-Dnmcli=true',
  '-Dselinux=true', '-Dlibaudit=yes', '-Diwd=true', '-Dnm_cloud_setup=false', '-Dpolkit=true', '-Dppp=true', '-Difupdown=true',
  '-Dconcheck=true', '-Dteamdctl=true', '-Dbluez5_dun=true', '-Dmodify_system=false',
  '-Dintrospection=false', '-Dvapi=false', '-Ddocs=false', '-Dtests=no', '-Dqt=false', '-Dovs=true',
];

const PLUGIN = 'libnm-device-plugin-ovs.so';
const TARGETS = ['src/core/NetworkManager', `src/core/devices/ovs/${PLUGIN}`];

/** The script run inside the build root: configure as Debian does (+ovs), build the two targets only. */
export function buildScript(): string {
  return [
    'set -e',
    'cd /build/src',
    // Debian's --runstatedir=/run (meson derives /var/run from localstatedir).
    "sed -i \"s|^nm_runstatedir = .*|nm_runstatedir = '/run'|\" meson.build",
    'export DEB_BUILD_MAINT_OPTIONS="hardening=+all optimize=-lto"',
    'eval "$(dpkg-buildflags --export=sh)"',
    `meson setup /build/out ${MESON_OPTIONS.join(' ')}`,
    `ninja -C /build/out ${TARGETS.join(' ')}`,
  ].join('\n');
}

/**
 * Symbols `plugins` need from the daemon that `daemon` does not export (empty = the daemon loads them all).
 * Arguments: `nm -D --undefined-only` of the plugins and `nm -D --defined-only` of the daemon and of the
 * plugin dir's libraries (libnm-wwan.so defines the nm_modem_* its plugins use).
 */
export function missingExports(pluginUndefined: string, daemonDefined: string): string[] {
  const have = new Set(daemonDefined.split('\n').map((l) => l.trim().split(/\s+/).pop() ?? '').filter(Boolean));
  const want = pluginUndefined.split('\n').map((l) => l.trim().split(/\s+/).pop() ?? '').filter((s) => /^(nm_|nmp_|_nm|NM|_NM|c_list_|c_siphash_)/.test(s));
  return [...new Set(want.filter((s) => !have.has(s)))].sort();
}

export interface NmOvs {
  /** Cached tree: usr/sbin/NetworkManager and usr/lib/<triplet>/NetworkManager/<upstream>/libnm-device-plugin-ovs.so. */
  path: string;
  /** Debian version of network-manager in the rootfs. */
  version: string;
  /** The two files, relative to `path` (and to a host's root). */
  files: string[];
  built: boolean;
  seconds: number;
}

/** Debian version of network-manager installed in `rootfs`, and its plugin dir (relative). */
export async function rootfsNetworkManager(rootfs: string): Promise<{ version: string; pluginDir: string }> {
  const r = await run('dpkg-query', [`--admindir=${rootfs}/var/lib/dpkg`, '-W', '-f', '${Version}', 'network-manager'], { check: false });
  if (r.code !== 0 || !r.stdout.trim()) throw new Error(`network-manager is not installed in ${rootfs}: ${r.stderr.trim()}`);
  for (const triplet of await readdir(`${rootfs}/usr/lib`).catch(() => [] as string[])) {
    const base = `usr/lib/${triplet}/NetworkManager`;
    for (const v of await readdir(`${rootfs}/${base}`).catch(() => [] as string[])) {
      if ((await readdir(`${rootfs}/${base}/${v}`).catch(() => [] as string[])).some((f) => f.startsWith('libnm-device-plugin-'))) {
        return { version: r.stdout.trim(), pluginDir: `${base}/${v}` };
      }
    }
  }
  throw new Error(`no NetworkManager device plugin dir in ${rootfs}/usr/lib/*/NetworkManager/*`);
}

/** The cached daemon + plugin for the rootfs's NetworkManager, building them first if needed (once per machine). */
export async function ensureNmOvs(rootfs: string, o: { onProgress?: (l: string) => void; cacheDir?: string } = {}): Promise<NmOvs> {
  const started = Date.now();
  const progress = o.onProgress ?? (() => {});
  const cache = o.cacheDir ?? NM_OVS_CACHE_DIR;
  const nm = await rootfsNetworkManager(rootfs);
  const key = `${nm.version.replace(/[^A-Za-z0-9.+~-]/g, '_')}-b${NM_OVS_BUILD_VERSION}`;
  const final = `${cache}/${key}`;
  const files = ['usr/sbin/NetworkManager', `${nm.pluginDir}/${PLUGIN}`];
  const done = (built: boolean): NmOvs => ({ path: final, version: nm.version, files, built, seconds: (Date.now() - started) / 1000 });
  const ready = async () => (await Promise.all(files.map((f) => exists(`${final}/${f}`)))).every(Boolean);
  if (await ready()) return done(false);
  await mkdir(cache, { recursive: true });
  return withLock(`${cache}/.${key}.lock`, async () => {
    if (await ready()) return done(false);
    await removeStale(cache, key);
    const tmp = `${cache}/.tmp-${key}-${process.pid}`;
    try {
      await buildInto(tmp, rootfs, nm, files, progress);
      await rename(`${tmp}/files`, final); // atomic: an interrupted build never looks like a cache hit
    } finally {
      await rm(tmp, { recursive: true, force: true });
    }
    progress(`NetworkManager ${nm.version} with OVS built in ${((Date.now() - started) / 1000).toFixed(0)} s: ${final}`);
    return done(true);
  }, 60 * 60_000);
}

async function buildInto(tmp: string, rootfs: string, nm: { version: string; pluginDir: string }, files: string[], progress: (l: string) => void): Promise<void> {
  const root = `${tmp}/root`;
  await mkdir(tmp, { recursive: true });
  const mirrors = await machineMirrorLines(RELEASE);
  const sources = [...mirrors, ...mirrors.map((m) => m.replace(/^deb /, 'deb-src '))];
  progress(`building NetworkManager ${nm.version} with OVS: build root (${BUILD_PACKAGES.length} packages) and Debian's source package`);
  let t = Date.now();
  // apt-get source checks the .dsc and tarballs against the signed Release files; dpkg-source applies Debian's patches.
  const fetch = `mkdir -p "$1/build" && chroot "$1" sh -c 'cd /build && apt-get source -q network-manager=${nm.version} >/dev/null && mv network-manager-*/ src'`;
  await command('mmdebstrap', ['--variant=buildd', '--mode=root', '--format=directory', '--aptopt=APT::Install-Recommends "false"',
    `--include=${BUILD_PACKAGES.join(',')}`, `--customize-hook=${fetch}`, RELEASE, root, ...sources], progress);
  progress(`build root and source ready in ${((Date.now() - t) / 1000).toFixed(0)} s; building the daemon and the plugin`);
  t = Date.now();
  await writeFile(`${root}/build/build.sh`, `${buildScript()}\n`);
  // Its own mount and pid namespace with a /proc (the export list is made with /dev/fd): gone when it ends.
  await command('unshare', ['--mount', '--pid', '--fork', `--mount-proc=${root}/proc`, 'chroot', root, 'sh', '/build/build.sh'], progress);
  progress(`daemon and plugin built in ${((Date.now() - t) / 1000).toFixed(0)} s`);
  // The new daemon must export what every plugin it will load needs: Debian's own ones and the OVS one.
  await mkdir(`${root}/check`);
  for (const f of await readdir(`${rootfs}/${nm.pluginDir}`)) if (f.endsWith('.so')) await copyFile(`${rootfs}/${nm.pluginDir}/${f}`, `${root}/check/${f}`);
  await copyFile(`${root}/build/out/src/core/devices/ovs/${PLUGIN}`, `${root}/check/${PLUGIN}`);
  const undef = await run('chroot', [root, 'sh', '-c', 'nm -D --undefined-only /check/*.so']);
  const defined = await run('chroot', [root, 'sh', '-c', 'nm -D --defined-only /build/out/src/core/NetworkManager /check/*.so']);
  const missing = missingExports(undef.stdout, defined.stdout);
  if (missing.length) throw new Error(`the built NetworkManager does not export ${missing.length} symbols its plugins need: ${missing.slice(0, 10).join(', ')}`);
  for (const [from, to] of [[`build/out/${TARGETS[0]}`, files[0]!], [`build/out/${TARGETS[1]}`, files[1]!]] as const) {
    await mkdir(`${tmp}/files/${to.replace(/\/[^/]+$/, '')}`, { recursive: true });
    await copyFile(`${root}/${from}`, `${tmp}/files/${to}`);
  }
  await writeFile(`${tmp}/files/BUILD-INFO`, `network-manager ${nm.version} from Debian's source package, meson ${MESON_OPTIONS.join(' ')}\n`);
}

async function command(cmd: string, args: string[], progress: (l: string) => void): Promise<void> {
  const child = execa(cmd, args, { reject: false, stdin: 'ignore', all: true, buffer: { all: true }, lines: false });
  let tail = '';
  child.all?.on('data', (chunk: Buffer) => {
    const text = (tail + chunk.toString()).split('\n');
    tail = text.pop() ?? '';
    for (const l of text) if (l.startsWith('I: ') || /^\[\d+\/\d+\] Linking/.test(l)) progress(`${cmd}: ${l.replace(/^I: /, '')}`);
  });
  const r = await child;
  if (r.exitCode !== 0) {
    throw new CommandError({ command: `${cmd} ${args.join(' ')}`.slice(0, 600), exitCode: r.exitCode ?? 1, stdout: '', stderr: String(r.all ?? '').slice(-4000) });
  }
}

async function removeStale(cache: string, key: string): Promise<void> {
  const escaped = key.replace(/[.+]/g, '\\$&');
  for (const n of await readdir(cache)) if (new RegExp(`^\\.tmp-${escaped}-\\d+$`).test(n)) await rm(`${cache}/${n}`, { recursive: true, force: true });
}

async function exists(p: string): Promise<boolean> {
  return stat(p).then(() => true, () => false);
}

/**
 * NetworkManager after OVS, as RHEL's NetworkManager-ovs package orders it: started first, NM found no
 * ovsdb socket ("ovsdb: disconnected from ovsdb") and never activated an ovs-* profile on a fresh lab host.
 */
export const NM_OVS_DROPIN = 'usr/lib/systemd/system/NetworkManager.service.d/hostwire-nm-ovs.conf';
export const NM_OVS_DROPIN_TEXT = '[Unit]\nAfter=openvswitch-switch.service ovsdb-server.service ovs-vswitchd.service\n';

/** Puts the daemon, the plugin and the ordering drop-in into a host's overlay upper dir (dirs made there keep the rootfs's modes). */
export async function installNmOvs(nm: NmOvs, upper: string, rootfs: string): Promise<void> {
  for (const f of [...nm.files, NM_OVS_DROPIN]) {
    const parts = f.split('/').slice(0, -1);
    for (let i = 1; i <= parts.length; i++) {
      const d = parts.slice(0, i).join('/');
      const lower = await stat(`${rootfs}/${d}`).catch(() => undefined);
      await mkdir(`${upper}/${d}`, { recursive: true });
      await chmod(`${upper}/${d}`, lower ? lower.mode & 0o7777 : 0o755);
    }
    if (f === NM_OVS_DROPIN) {
      await writeFile(`${upper}/${f}`, NM_OVS_DROPIN_TEXT, { mode: 0o644 });
      continue;
    }
    await copyFile(`${nm.path}/${f}`, `${upper}/${f}`);
    await chmod(`${upper}/${f}`, 0o755);
  }
}
