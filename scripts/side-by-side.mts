/**
 * `npm test`'s static checks (the npm scripts named below), as many at a time as the machine has cores: each is one
 * mostly single-threaded process (tsc, eslint), so one after another they leave a core idle. Each check's output is
 * printed whole when it ends, with its time; the exit code is 1 when any failed, and the failed ones are named last.
 */
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';

const CHECKS = ['typecheck', 'lint', 'lint:tooling', 'scan'];

function run(script: string): Promise<boolean> {
	const started = Date.now();
	return new Promise((resolve) => {
		const child = spawn('npm', ['run', '--silent', script], { stdio: ['ignore', 'pipe', 'pipe'] });
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
const queue = [...CHECKS];
await Promise.all(
	Array.from({ length: Math.min(availableParallelism(), CHECKS.length) }, async () => {
		for (let script = queue.shift(); script; script = queue.shift()) if (!(await run(script))) failed.push(script);
	}),
);
if (failed.length > 0) {
	console.error(`\nFailed: ${failed.map((script) => `npm run ${script}`).join(', ')}`);
	process.exit(1);
}
