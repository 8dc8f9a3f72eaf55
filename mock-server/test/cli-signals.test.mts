// SIGTERM and SIGINT to the built CLI, run directly and through npx: the server stops, the state folder is closed cleanly (SQLite removes its WAL file only then), the port is free within a few seconds, and the mock exits 0.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { STATE_FILE } from '../src/state/state-folder.mts';
import { CLI, runCli, type CliProcess } from './cli-process.mts';
import { DEMO_TOKEN } from './harness.mts';

const SMALL_FLAGS = ['--port', '0', '--sources', '20', '--jobs', '200', '--signals', '200'];
const dirs: string[] = [];
const children: ChildProcess[] = [];
const newDir = (prefix: string) => {
	const dir = mkdtempSync(join(tmpdir(), prefix));
	dirs.push(dir);
	return dir;
};
const start = (args: string[]): CliProcess => {
	const cli = runCli(args);
	children.push(cli.child);
	return cli;
};

beforeAll(() => {
	if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first (npm test does)`);
});
afterEach(() => {
	for (const child of children.splice(0)) {
		// npx's shell and mock are in npx's process group (detached), and may outlive npx when a test fails.
		if (child.spawnargs[0] === 'npx') {
			try {
				process.kill(-child.pid!, 'SIGKILL');
			} catch {
				// The group is gone already.
			}
		} else if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
	}
});
afterAll(() => {
	for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** Whether this process can listen on the port now. */
const portFree = (port: number) =>
	new Promise<boolean>((resolve) => {
		const probe = createServer();
		probe.once('error', () => resolve(false));
		probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
	});

/** Resolves with how long the port took to become free, or rejects after `timeoutMs`. */
async function portFreed(port: number, timeoutMs = 5000): Promise<number> {
	const started = performance.now();
	while (!(await portFree(port))) {
		if (performance.now() - started > timeoutMs) throw new Error(`port ${port} still held after ${timeoutMs} ms`);
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
	return performance.now() - started;
}

/** Waits for the mock's App URL line in `output()`; returns its URL and port. */
async function appUrlOf(output: () => string, exited: Promise<unknown>): Promise<{ appUrl: string; port: number }> {
	const deadline = performance.now() + 30_000;
	let gone = false;
	void exited.then(() => (gone = true));
	for (;;) {
		const match = /App URL: +(http:\/\/127\.0\.0\.1:(\d+))\n/.exec(output());
		if (match) return { appUrl: match[1], port: Number(match[2]) };
		if (gone || performance.now() > deadline) throw new Error(`no App URL line: ${output()}`);
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
}

/** A call that leaves a kept-alive connection open, as a client between requests does. */
async function use(appUrl: string): Promise<void> {
	const answer = await fetch(`${appUrl}/v2/collections`, { headers: { authorization: `Bearer ${DEMO_TOKEN}` } });
	expect(answer.status).toBe(200);
	await answer.arrayBuffer();
}

describe('stopping the CLI', () => {
	for (const signal of ['SIGTERM', 'SIGINT'] as const) {
		it(`${signal}: stops serving, closes the state folder, frees the port and exits 0`, async () => {
			const stateDir = newDir('job-signals-signal-');
			const cli = start([...SMALL_FLAGS, '--state-dir', stateDir]);
			const { appUrl, port } = await appUrlOf(() => cli.output().stdout, cli.exited);
			await use(appUrl);
			expect(existsSync(join(stateDir, `${STATE_FILE}-wal`))).toBe(true);
			cli.child.kill(signal);
			expect(await cli.exited).toBe(0);
			expect(cli.output().stdout).toMatch(new RegExp(`\\n${signal}: shutting down\\n`));
			expect(await portFreed(port, 3000)).toBeLessThan(3000);
			// SQLite checkpoints and deletes the WAL file when the last connection closes: a killed mock leaves it.
			expect(existsSync(join(stateDir, `${STATE_FILE}-wal`))).toBe(false);
		});
	}
});

/** npx from PATH, when there is one. */
const npx = spawnSync('npx', ['--version'], { encoding: 'utf8' }).status === 0;

describe.skipIf(!npx)('stopping the CLI run through npx', () => {
	// A project with the package installed as a link to this one: npx runs its bin through `sh -c`.
	let project: string;
	beforeAll(() => {
		project = newDir('job-signals-npx-');
		writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'npx-project', private: true }));
		mkdirSync(join(project, 'node_modules/.bin'), { recursive: true });
		symlinkSync(join(__dirname, '..'), join(project, 'node_modules/job-signals-mock-server'), 'dir');
		symlinkSync('../job-signals-mock-server/dist/cli.js', join(project, 'node_modules/.bin/job-signals-mock'));
	});

	/** `npx job-signals-mock` on a free port with a state folder, in a process group of its own (as a terminal's foreground job). */
	async function startNpx() {
		const stateDir = newDir('job-signals-npx-state-');
		// This Node first, as in a shell where it is the `node` on PATH; not "started by npx" already (vitest may be).
		const { npm_lifecycle_event: _npx, ...inherited } = process.env;
		const env = { ...inherited, PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}` };
		const child = spawn('npx', ['job-signals-mock', ...SMALL_FLAGS, '--state-dir', stateDir], { cwd: project, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
		children.push(child);
		let output = '';
		child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
		child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
		const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
		const { appUrl, port } = await appUrlOf(() => output, exited);
		await use(appUrl);
		return { child, exited, port, stateDir, output: () => output };
	}

	/** The mock (npx's grandchild) said it was shutting down, freed its port and closed its state folder. */
	async function expectStopped(npxRun: Awaited<ReturnType<typeof startNpx>>, reason: RegExp): Promise<void> {
		expect(await portFreed(npxRun.port)).toBeLessThan(5000);
		await expect.poll(npxRun.output, { timeout: 5000 }).toMatch(reason);
		await expect.poll(() => existsSync(join(npxRun.stateDir, `${STATE_FILE}-wal`)), { timeout: 5000 }).toBe(false);
	}

	it('SIGTERM to npx alone: npm passes it to its shell only, and the mock, its parent gone, stops too', async () => {
		const run = await startNpx();
		run.child.kill('SIGTERM');
		// npm ends as killed by the signal its shell died of (status 143 in a shell): npm's doing, not the mock's.
		expect(await run.exited).toEqual({ code: null, signal: 'SIGTERM' });
		await expectStopped(run, /\nnpx stopped \(its shell is gone\): shutting down\n/);
	});

	it('SIGINT to npx\'s process group (Ctrl-C in a terminal): the mock stops', async () => {
		const run = await startNpx();
		process.kill(-run.child.pid!, 'SIGINT');
		// dash, having got the SIGINT too, ends by it once the mock has exited, and npm re-raises it (130 in a shell).
		expect(await run.exited).toEqual({ code: null, signal: 'SIGINT' });
		await expectStopped(run, /\nSIGINT: shutting down\n/);
	});
});
