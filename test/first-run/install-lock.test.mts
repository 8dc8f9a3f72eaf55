/**
 * Two first runs at once take turns on the n8n cache: real processes contend for one lock file, as
 * `npm start` and `npm run test:e2e` do; the second waits with a message and starts only after the
 * first released; a lock left by a killed installer is taken over.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { acquireInstallLock } from '../../harness/n8n/install-lock.mts';
import { N8N_VERSION, REPO_ROOT } from '../../harness/n8n/config.mts';

const dir = mkdtempSync(join(tmpdir(), 'job-signals-lock-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A process that holds the lock until the file `releaseWhen` exists, logging when it got it and when it let go. */
function contender(lock: string, log: string, name: string, releaseWhen: string) {
	const script = `
		import { appendFileSync, existsSync } from 'node:fs';
		import { acquireInstallLock } from ${JSON.stringify(join(REPO_ROOT, 'harness/n8n/install-lock.mts'))};
		const release = await acquireInstallLock(${JSON.stringify(lock)}, { pollMs: 50, onWait: (pid) => console.log('waiting for ' + pid) });
		appendFileSync(${JSON.stringify(log)}, '${name} in ' + Date.now() + '\\n');
		while (!existsSync(${JSON.stringify(releaseWhen)})) await new Promise((r) => setTimeout(r, 20));
		appendFileSync(${JSON.stringify(log)}, '${name} out ' + Date.now() + '\\n');
		release();
	`;
	const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
	let output = '';
	child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
	const done = new Promise<void>((resolve, reject) => child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`exit ${code}`)))));
	return { child, done, output: () => output };
}

describe('the n8n install lock', () => {
	it('lets one installer in at a time; the second says it waits, for whom, and goes on when the first is done', async () => {
		const lock = join(dir, 'one-at-a-time.lock');
		const log = join(dir, 'one-at-a-time.log');
		writeFileSync(log, '');
		const go = join(dir, 'go');
		const first = contender(lock, log, 'first', go);
		while (!readFileSync(log, 'utf8').includes('first in')) await new Promise((r) => setTimeout(r, 20));
		const second = contender(lock, log, 'second', log);
		// The first lets go only once the second has said it waits: no timing assumed.
		while (!second.output().includes('waiting')) await new Promise((r) => setTimeout(r, 20));
		writeFileSync(go, '');
		await Promise.all([first.done, second.done]);
		const events = readFileSync(log, 'utf8').trim().split('\n').map((line) => line.split(' ').slice(0, 2).join(' '));
		expect(events).toEqual(['first in', 'first out', 'second in', 'second out']);
		expect(second.output()).toBe(`waiting for ${first.child.pid}\n`);
		expect(first.output()).toBe('');
		expect(existsSync(lock)).toBe(false);
	});

	it('takes over a lock whose installer is gone (killed mid-install), without waiting', async () => {
		const lock = join(dir, 'stale.lock');
		const dead = spawn(process.execPath, ['-e', '']);
		await new Promise((resolve) => dead.on('exit', resolve));
		writeFileSync(lock, `${dead.pid}\n`);
		let waited = false;
		const release = await acquireInstallLock(lock, { pollMs: 50, onWait: () => (waited = true) });
		expect(waited).toBe(false);
		expect(readFileSync(lock, 'utf8').trim()).toBe(String(process.pid));
		release();
		expect(existsSync(lock)).toBe(false);
	});

	it('a second `install.mts` waits for the run that is installing, says so, and uses its install instead of installing again', async () => {
		const cache = join(dir, 'n8n-cache');
		const go = join(dir, 'install-go');
		// The first run: holds the cache's lock like an install in progress, then leaves its marker and lets go.
		const script = `
			import { mkdirSync, writeFileSync, existsSync } from 'node:fs';
			import { acquireInstallLock } from ${JSON.stringify(join(REPO_ROOT, 'harness/n8n/install-lock.mts'))};
			const release = await acquireInstallLock(${JSON.stringify(`${cache}.lock`)}, { onWait: () => {} });
			console.log('holding');
			while (!existsSync(${JSON.stringify(go)})) await new Promise((r) => setTimeout(r, 20));
			mkdirSync(${JSON.stringify(cache)}, { recursive: true });
			writeFileSync(${JSON.stringify(join(cache, '.installed'))}, '${N8N_VERSION} node-' + process.versions.node + '\\n');
			release();
		`;
		const first = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
		let firstOutput = '';
		first.stdout.on('data', (chunk: Buffer) => (firstOutput += chunk.toString()));
		while (!firstOutput.includes('holding')) await new Promise((r) => setTimeout(r, 20));

		const second = spawn(process.execPath, [join(REPO_ROOT, 'harness/n8n/install.mts')], {
			env: { ...process.env, JOB_SIGNALS_N8N_CACHE: cache },
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		let output = '';
		second.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
		second.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
		// Never let a broken marker start a real 2.8 GB install from a unit test.
		const guard = setInterval(() => output.includes('Installing n8n') && second.kill('SIGKILL'), 50);
		const exited = new Promise<number | null>((resolve) => second.on('exit', resolve));
		while (!output.includes('waiting')) await new Promise((r) => setTimeout(r, 20));
		writeFileSync(go, '');
		expect(await exited).toBe(0);
		clearInterval(guard);
		expect(output).toBe(
			`Another run (PID ${first.pid}) is installing n8n ${N8N_VERSION} into ${cache}; waiting for it to finish (its progress: ${join(cache, 'install.log')}).\n`,
		);
		expect(existsSync(`${cache}.lock`)).toBe(false);
	});
});
