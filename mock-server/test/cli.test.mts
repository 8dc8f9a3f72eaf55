// The built CLI (`job-signals-mock`, mock-server/dist/cli.js; `npm test` builds first): start-up lines, serving, clean exit on SIGTERM, bad flags.
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Script } from 'node:vm';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { signalsEnvelopeSchema } from '../src/base/contract.mts';
import { USAGE } from '../src/cli-flags.mts';
import { DEMO_TOKEN } from './harness.mts';

const CLI = join(__dirname, '../../mock-server/dist/cli.js');
const started: ChildProcess[] = [];

beforeAll(() => {
	if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first (npm test does)`);
});
afterEach(() => {
	for (const child of started.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

/**
 * The built page (its script is a function's source text as the bundle printed it, src/page/page.mts): served, its
 * inline script and style are the ones its Content-Security-Policy names by hash, and the script parses.
 * test/page.test.mts runs the page itself in Chromium.
 */
async function expectPageWhole(url: string): Promise<void> {
	const answer = await fetch(url);
	expect(answer.status).toBe(200);
	const html = await answer.text();
	const script = /<script type="module">([\s\S]*)<\/script>/.exec(html)?.[1] ?? '';
	const style = /<style>([\s\S]*)<\/style>/.exec(html)?.[1] ?? '';
	const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
	expect(answer.headers.get('content-security-policy')).toContain(`script-src ${hash(script)}; style-src ${hash(style)};`);
	expect(script).toMatch(/^\(function pageMain\w*\(config\) \{/);
	expect(() => new Script(script)).not.toThrow();
}

function run(args: string[]) {
	const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
	started.push(child);
	let stdout = '';
	let stderr = '';
	child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
	child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
	const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
	const output = () => ({ stdout, stderr });
	/** Resolves once stdout matches, or rejects when the process exits or 15 s pass first. */
	const waitFor = (pattern: RegExp) =>
		new Promise<RegExpExecArray>((resolve, reject) => {
			const timer = setTimeout(() => reject(new Error(`timed out waiting for ${pattern}: ${stdout}${stderr}`)), 15_000);
			const check = () => {
				const match = pattern.exec(stdout);
				if (match) {
					clearTimeout(timer);
					resolve(match);
				}
			};
			child.stdout?.on('data', check);
			child.once('exit', () => {
				clearTimeout(timer);
				reject(new Error(`exited before ${pattern}: ${stdout}${stderr}`));
			});
		});
	return { child, exited, output, waitFor };
}

describe('CLI', () => {
	it('prints the API base URL, the app URL, the demo token, the page and who may call it, serves, and exits 0 on SIGTERM', async () => {
		const cli = run(['--port', '0', '--jobs', '2000', '--signals', '2000', '--sources', '50']);
		const match = await cli.waitFor(/API base URL: (\S+)\nApp URL: +(\S+)\nDemo token: +(\S+)\nPage: +(\S+)\nCORS: +(.+)\n/);
		const [, apiUrl, appUrl, token, page, cors] = match;
		expect(cors).toBe("pages on http(s)://localhost, 127.0.0.1 and [::1] (any port) and the mock's own page may call it; a page on any other origin gets 403 (--cors-origin)");
		expect(apiUrl).toBe(`${appUrl}/v2`);
		expect(page).toBe(`${appUrl}/__mock/ui`);
		await expectPageWhole(page);
		expect(appUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
		expect(token).toBe(DEMO_TOKEN);
		expect(cli.output().stdout).toMatch(/50 sources, 2000 jobs, 2000 signals/);
		const response = await fetch(`${apiUrl}/signals/problems`, { headers: { authorization: `Bearer ${token}` } });
		expect(response.status).toBe(200);
		signalsEnvelopeSchema.strict().parse(await response.json());
		cli.child.kill('SIGTERM');
		expect(await cli.exited).toBe(0);
		expect(cli.output().stdout).toMatch(/SIGTERM: shutting down/);
		await expect(fetch(`${appUrl}/__mock/accounts`)).rejects.toThrow();
	});

	it('uses --token and --host', async () => {
		const cli = run(['--port=0', '--host=127.0.0.1', '--token=my-token', '--jobs=100', '--signals=100', '--sources=5']);
		const [, apiUrl] = await cli.waitFor(/API base URL: (\S+)\n[\s\S]*Demo token: +my-token\n/);
		expect((await fetch(`${apiUrl}/collections`, { headers: { authorization: 'Bearer my-token' } })).status).toBe(200);
		expect((await fetch(`${apiUrl}/collections`, { headers: { authorization: `Bearer ${DEMO_TOKEN}` } })).status).toBe(400);
		cli.child.kill('SIGINT');
		expect(await cli.exited).toBe(0);
	});

	it('exits 2 with a message and the usage on a bad flag', async () => {
		const cases = [
			[['--port', 'abc'], /--port must be a whole number/],
			[['--port', '70000'], /--port must be at most 65535/],
			[['--bogus', '1'], /Unknown flag --bogus/],
			[['--jobs'], /--jobs needs a value/],
			[['--time-scale', '0'], /--time-scale must be a number greater than 0/],
			[['--rate-limit=-1'], /--rate-limit must be a whole number/],
			[['stray'], /Unexpected argument "stray"/],
			[['--rate-limit-headers', 'no'], /--rate-limit-headers must be on or off, got "no"/],
			[['--rate-limit-headers'], /--rate-limit-headers needs a value/],
			[['--cors-origin', 'localhost:3000'], /--cors-origin: the CORS origin must be "loopback", "\*" or origins separated by commas.*got "localhost:3000"/],
			[['--cors-origin=http://a.test/path'], /--cors-origin: .*got "http:\/\/a\.test\/path"/],
			[['--data'], /--data needs a value/],
		] as const;
		// In parallel: each is a whole Node start-up.
		await Promise.all(
			cases.map(async ([args, message]) => {
				const cli = run([...args]);
				expect(await cli.exited).toBe(2);
				expect(cli.output().stderr).toMatch(message);
				expect(cli.output().stderr).toContain(USAGE);
			}),
		);
	});

	it('--help prints the usage and exits 0', async () => {
		const cli = run(['--help']);
		expect(await cli.exited).toBe(0);
		expect(cli.output().stdout.trim()).toBe(USAGE);
	});
});
