// Pure parts of the NetworkManager-with-OVS build for lab hosts (src/lab/nm-ovs.ts): the export check that
// found Debian's daemon cannot load the plugin alone, and the build script's Debian choices.
import test from 'ava';
import { buildScript, missingExports, MESON_OPTIONS } from '../../src/lab/nm-ovs.js';

// `nm -D --undefined-only libnm-device-plugin-ovs.so` (excerpt, recorded from the build of 1.42.4-1+deb12u1).
const PLUGIN_UNDEF = `                 U g_free
                 U json_object_get
                 U nm_device_unrealize
                 U nm_setting_ovs_bridge_get_datapath_type
                 U nm_device_get_iface
                 U _nm_setting_ovs_port_get_trunks_arr
`;
// `nm -D --defined-only /usr/sbin/NetworkManager` of Debian's build (excerpt: it has no ovs symbols).
const DEBIAN_DAEMON = `00000000000c1e20 T nm_device_get_iface
00000000000d0e90 T nm_device_get_ip_iface
`;

test("Debian's daemon lacks what the OVS plugin needs from it; library symbols do not count", (t) => {
  t.deepEqual(missingExports(PLUGIN_UNDEF, DEBIAN_DAEMON), ['_nm_setting_ovs_port_get_trunks_arr', 'nm_device_unrealize', 'nm_setting_ovs_bridge_get_datapath_type']);
});

test('a daemon exporting everything loads the plugin', (t) => {
  const all = `${DEBIAN_DAEMON}0000000000012345 T nm_device_unrealize\n0000000000012346 T nm_setting_ovs_bridge_get_datapath_type\n0000000000012347 T _nm_setting_ovs_port_get_trunks_arr\n`;
  t.deepEqual(missingExports(PLUGIN_UNDEF, all), []);
});

test("the build is Debian's configuration plus ovs, and builds the daemon and the plugin only", (t) => {
  t.true(MESON_OPTIONS.includes('-Dovs=true'));
  for (const o of ['-Dcrypto=gnutls', '-Dlibaudit=yes', '-Dselinux=true', '-Difupdown=true', '-Dmodem_manager=true', '-Dteamdctl=true', '-Dconcheck=true']) t.true(MESON_OPTIONS.includes(o), o);
  const s = buildScript();
  t.regex(s, /nm_runstatedir = '\/run'/);
  t.regex(s, /dpkg-buildflags/);
  t.regex(s, /ninja -C \/build\/out src\/core\/NetworkManager src\/core\/devices\/ovs\/libnm-device-plugin-ovs\.so$/m);
});
