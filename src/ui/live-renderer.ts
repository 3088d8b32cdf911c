// The interactive view: one listr2 list per task with a spinner per host while it runs, then
// the same PLAY RECAP as the plain output. Used only on a TTY.
import { Listr } from 'listr2';
import type { HostResult, RunEvent } from '../engine/runner/events.js';
import { banner, formatDiff, recapLine, taskTitle } from './format.js';

interface Pending {
  resolve(r: HostResult | undefined): void;
}

export function createLiveRenderer(o: { write(text: string): void; diff: boolean }) {
  let chain: Promise<void> = Promise.resolve();
  let pending = new Map<string, Pending>();
  let playHosts: string[] = [];
  const settleAll = () => {
    for (const p of pending.values()) p.resolve(undefined);
    pending = new Map();
  };
  const listener = (e: RunEvent) => {
    switch (e.type) {
      case 'play_start':
        settleAll();
        playHosts = e.hosts;
        chain = chain.then(() => o.write(`\n${banner(`PLAY [${e.name}]`)}\n`));
        return;
      case 'task_start': {
        settleAll();
        const waits = new Map<string, Promise<HostResult | undefined>>();
        for (const host of playHosts) waits.set(host, new Promise((resolve) => pending.set(host, { resolve })));
        const list = new Listr(
          playHosts.map((host) => ({
            title: host,
            task: async (_ctx: unknown, t: { title: string; skip(msg?: string): void; output: string }) => {
              const r = await waits.get(host)!;
              if (!r) return t.skip(`${host}: not run`);
              t.title = `${r.status}: ${host}${r.msg && r.status !== 'ok' ? ` - ${r.noLog ? 'hidden (no_log)' : r.msg.split('\n')[0]}` : ''}`;
              if (r.status === 'skipped') return t.skip(`skipping: ${host}`);
              if (r.status === 'failed' || r.status === 'unreachable') throw new Error(t.title);
              if ((r.diffMode ?? o.diff) && !r.noLog && r.diff?.length) t.output = r.diff.map(formatDiff).join('\n');
            },
          })),
          { concurrent: true, exitOnError: false, rendererOptions: { collapseSubtasks: false, collapseErrors: false, showErrorMessage: true } },
        );
        const title = taskTitle(e.task);
        chain = chain.then(async () => {
          o.write(`\n${banner(title)}\n`);
          await list.run().catch(() => undefined);
        });
        return;
      }
      case 'host_result': {
        const p = pending.get(e.result.host);
        pending.delete(e.result.host);
        p?.resolve(e.result);
        return;
      }
      case 'warning':
      case 'host_wait':
        chain = chain.then(() => o.write(`[WARNING]: ${e.message}\n`));
        return;
      case 'run_end':
        settleAll();
        chain = chain.then(() => {
          o.write(`\n${banner('PLAY RECAP')}\n`);
          for (const [host, s] of Object.entries(e.summary.stats)) o.write(recapLine(host, s) + '\n');
          o.write('\n');
        });
        return;
      default:
        return;
    }
  };
  return { listener, done: () => chain };
}
