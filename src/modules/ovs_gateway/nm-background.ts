// An activation the nm script starts in the background and waits for later: NetworkManager completes some
// of them only once another one is up (ovs-if-phys0 only once ovs-if-br-ex is). Its output goes to a file
// under RUN_DIR, shown when it fails (nmcli's hint names the profile and device); `nmcli --wait 60` bounds
// the wait.
import { shellJoin } from '../../transports/quote.js';
import { RUN_DIR } from './script/index.js';

export interface NmBackground { log: string; start: string; wait: string[] }

/** `nmcli connection up <con>` (or the command `up`) in the background (pid in $<pidVar>, output in nm-<tag>.$$). */
export function nmUpInBackground(con: string, tag: string, pidVar: string, up = nmUp(con)): NmBackground {
  const log = nmLog(tag);
  return {
    log,
    start: `${up} >${log} 2>&1 & ${pidVar}=$!`,
    wait: [`wait $${pidVar} || { cat ${log}; rm -f ${log}; exit 1; }`, `rm -f ${log}`],
  };
}

export const nmUp = (con: string) => shellJoin(['nmcli', '--wait', '60', 'connection', 'up', con]);
export const nmLog = (tag: string) => `"${RUN_DIR}/nm-${tag}.$$"`;
