/**
 * Runs the npm scripts named on the command line (each argument one script, with its flags: `'build -w mock-server'`),
 * as many at a time as the machine has cores, in the order given (the longest first keeps the cores busy to the end):
 * each is mostly one single-threaded process (tsc, eslint, tsup's declarations), so one after another they leave a
 * core idle. `npm run build:all` builds both packages this way, `npm run checks` runs `npm test`'s static checks.
 * Each script's output is printed whole when it ends, with its time; the exit code is 1 when any failed, and the
 * failed ones are named last.
 */
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';

const scripts = process.argv.slice(2);
if (scripts.length === 0) {
	console.error("Usage: node scripts/side-by-side.mts SCRIPT ['SCRIPT --flag' …] (npm scripts, run side by side)");
	process.exit(2);
}

function run(script: string): Promise<boolean> {
	const started = Date.now();
	return new Promise((resolve) => {
		const child = spawn('npm', ['run', '--silent', ...script.split(' ')], { stdio: ['ignore', 'pipe', 'pipe'] });
		const output: Buffer[] = [];
		child.stdout.on('data', (chunk: Buffer) => output.push(chunk));
		child.stderr.on('data', (chunk: Buffer) => output.push(chunk));
		child.on('close', (code, signal) => {
			const passed = code === 0;
			const status = passed ? 'passed' : `FAILED (${signal ?? `exit ${code}`})`;
			process.stdout.write(`\n=== npm run ${script}: ${status} in ${Math.round((Date.now() - started) / 1000)} s\n${Buffer.concat(output).toString()}`);
			resolve(passed);
		});
	});
}

const failed: string[] = [];
const queue = [...scripts];
await Promise.all(
	Array.from({ length: Math.min(availableParallelism(), scripts.length) }, async () => {
		for (let script = queue.shift(); script; script = queue.shift()) if (!(await run(script))) failed.push(script);
	}),
);
if (failed.length > 0) {
	console.error(`\nFailed: ${failed.map((script) => `npm run ${script}`).join(', ')}`);
	process.exit(1);
}
