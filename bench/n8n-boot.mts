/**
 * What the e2e tests' HEADLESS_ENV (harness/n8n/config.mts) saves a boot of `n8n start` (`npm run bench:n8n-boot`):
 * the time from the process's start to n8n's readiness answer, and the CPU time its processes had used by then (from
 * /proc: every process in its process group, the task runner too), with the editor and without it, on one user folder
 * that a first boot has already migrated. The two take turns, each pair in the other order than the one before, and
 * each n8n is stopped before the next starts. It reports the pairs, their medians and the ratios, with the load.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { HEADLESS_ENV } from '../harness/n8n/config.mts';
import { installN8n } from '../harness/n8n/install.mts';
import { freeN8nPorts, startN8n } from '../harness/n8n/local-n8n.mts';
import { median } from './percentiles.mts';

const PAIRS = 5;
const KINDS = { editor: { N8N_DISABLE_UI: 'false' }, headless: HEADLESS_ENV };
type Kind = keyof typeof KINDS;

const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');

/** CPU seconds (user + system) used so far by the processes of process group `group` that still run. */
function groupCpuSeconds(group: number): number {
	let ticks = 0;
	for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
		let stat: string;
		try {
			stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
		} catch {
			continue; // it exited meanwhile
		}
		// The fields after the command name, which is in parentheses and may hold spaces: pgrp is the 3rd, utime and stime the 12th and 13th.
		const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
		if (Number(fields[2]) === group) ticks += Number(fields[11]) + Number(fields[12]);
	}
	return ticks / 100;
}

async function boot(folder: string, kind: Kind): Promise<{ ms: number; cpu: number }> {
	const started = Date.now();
	const n8n = await startN8n(folder, await freeN8nPorts(), { env: KINDS[kind], label: kind });
	const ms = Date.now() - started;
	const cpu = groupCpuSeconds(n8n.child.pid!);
	await n8n.stop(30_000);
	return { ms, cpu };
}

await installN8n();
const folder = mkdtempSync(join(tmpdir(), 'job-signals-boot-bench-'));
try {
	console.log(`load ${load()}: a first boot migrates the folder's database (not counted)`);
	await boot(folder, 'headless');
	const runs: Record<Kind, { ms: number; cpu: number }[]> = { editor: [], headless: [] };
	for (let pair = 0; pair < PAIRS; pair++) {
		const order: Kind[] = pair % 2 === 0 ? ['editor', 'headless'] : ['headless', 'editor'];
		for (const kind of order) runs[kind].push(await boot(folder, kind));
		const [e, h] = [runs.editor[pair], runs.headless[pair]];
		console.log(`pair ${pair + 1}: editor ${e.ms} ms, ${e.cpu} s CPU; headless ${h.ms} ms, ${h.cpu} s CPU (load ${load()})`);
	}
	const medians = (kind: Kind) => ({ ms: median(runs[kind].map((r) => r.ms)), cpu: median(runs[kind].map((r) => r.cpu)) });
	const [editor, headless] = [medians('editor'), medians('headless')];
	console.log(`median: editor ${editor.ms} ms, ${editor.cpu} s CPU; headless ${headless.ms} ms, ${headless.cpu} s CPU`);
	console.log(`headless ÷ editor: time ×${(headless.ms / editor.ms).toFixed(2)}, CPU ×${(headless.cpu / editor.cpu).toFixed(2)}`);
} finally {
	rmSync(folder, { recursive: true, force: true });
}
