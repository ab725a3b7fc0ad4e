// Memory and CPU of a process tree, from Linux's /proc: the command analyzes
// each file in a child process, so the measuring process's own numbers leave
// most of the work out. Used by the bench and the pathological-input test.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { clearInterval, setInterval } from 'node:timers';

/** Resident bytes of this process and all its descendants now (0 without /proc). */
export function treeRssBytes() {
  if (!existsSync('/proc/self/statm')) return 0;
  const parent = new Map();
  for (const d of readdirSync('/proc')) {
    if (!/^[0-9]+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      parent.set(Number(d), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch { /* gone */ }
  }
  const mine = new Set([process.pid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const [pid, ppid] of parent) if (!mine.has(pid) && mine.has(ppid)) { mine.add(pid); grew = true; }
  }
  let bytes = 0;
  for (const pid of mine) {
    try { bytes += Number(readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]) * 4096; } catch { /* gone */ }
  }
  return bytes;
}

/** Samples the tree's resident memory every `ms` until `stop()`, which returns the peak in bytes (at least
 *  this process's own peak). The sampling needs this thread's event loop free (the work elsewhere). */
export function sampleTreeRss(ms = 50) {
  let peak = 0;
  const timer = existsSync('/proc/self/statm') ? setInterval(() => { peak = Math.max(peak, treeRssBytes()); }, ms) : undefined;
  timer?.unref();
  return {
    stop() {
      if (timer !== undefined) clearInterval(timer);
      return Math.max(peak, process.resourceUsage().maxRSS * 1024);
    },
  };
}

/** CPU time of the child processes that have ended (cutime + cstime, in 1/100 s on Linux), in ms. */
export function childrenCpuMs() {
  if (!existsSync('/proc/self/stat')) return 0;
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[13]) + Number(f[14])) * 10;
}
