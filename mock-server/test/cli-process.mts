/** The built CLI (mock-server/dist/cli.js) as a child process, with its output and a wait for a line. */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

export const CLI = join(__dirname, '../../mock-server/dist/cli.js');

export interface CliProcess {
	child: ChildProcess;
	exited: Promise<number | null>;
	output(): { stdout: string; stderr: string };
	/** Resolves once stdout matches, or rejects when the process exits or `timeoutMs` pass first. */
	waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
}

export function runCli(args: string[]): CliProcess {
	const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
	let stdout = '';
	let stderr = '';
	child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
	child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
	const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
	const waitFor = (pattern: RegExp, timeoutMs = 30_000) =>
		new Promise<RegExpExecArray>((resolve, reject) => {
			const timer = setTimeout(() => reject(new Error(`timed out waiting for ${pattern}: ${stdout}${stderr}`)), timeoutMs);
			const check = () => {
				const match = pattern.exec(stdout);
				if (!match) return;
				clearTimeout(timer);
				resolve(match);
			};
			child.stdout?.on('data', check);
			check();
			child.once('exit', () => {
				clearTimeout(timer);
				reject(new Error(`exited before ${pattern}: ${stdout}${stderr}`));
			});
		});
	return { child, exited, output: () => ({ stdout, stderr }), waitFor };
}
