/**
 * The release rehearsal: the publish job of .github/workflows/publish.yml, read from the file and run
 * step by step in a copy of the checkout, against a local registry instead of npmjs.com, with what
 * GitHub Actions would give it: GITHUB_ACTIONS, the repository and the version tag, and NPM_TOKEN
 * (the local registry's token), written to a fresh user .npmrc by the workflow's own token step.
 * What differs, and why:
 * - `actions/checkout` is a copy of the working tree (checkout-copy.mts); `actions/setup-node` is this
 *   process's Node.
 * - The Install step (`npm install`) is the repository's own node_modules, linked into the copy.
 * - The provenance signature: only GitHub's OIDC token can make one. provenance-stand-in/npm, first
 *   on PATH, records that each `npm publish` asked for provenance and publishes without it.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { copyCheckout } from './checkout-copy.mts';
import type { LocalRegistry } from './local-registry.mts';
import { runCommand } from './processes.mts';

interface Step {
	name?: string;
	run?: string;
	env?: Record<string, string>;
}

export interface Rehearsal {
	/** Each step's name and everything it printed. */
	output: string;
	/** Each `npm publish`: the folder it ran in, its arguments, and whether it asked for provenance. */
	publishes: { provenance: boolean; folder: string; args: string }[];
}

const STAND_IN = join(import.meta.dirname, 'provenance-stand-in');

/** `${{ secrets.NPM_TOKEN }}` becomes the registry's token; any other expression is a step this rehearsal cannot run. */
function expand(value: string, token: string): string {
	return value.replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_, expression: string) => {
		if (expression === 'secrets.NPM_TOKEN') return token;
		throw new Error(`publish.yml uses \${{ ${expression} }}, which the release rehearsal does not know how to give`);
	});
}

export async function rehearseRelease(registry: LocalRegistry): Promise<Rehearsal> {
	const work = mkdtempSync(join(tmpdir(), 'job-signals-release-'));
	try {
		const checkout = join(work, 'checkout');
		copyCheckout(checkout);

		const manifest = JSON.parse(readFileSync(join(checkout, 'package.json'), 'utf8')) as { version: string; repository: { url: string } };
		const repository = manifest.repository.url.replace(/^git\+https:\/\/github\.com\//, '').replace(/\.git$/, '');
		const userConfig = join(work, 'npmrc');
		writeFileSync(userConfig, `registry=${registry.url}\nfund=false\naudit=false\nupdate-notifier=false\n`);
		const publishLog = join(work, 'publishes.log');
		writeFileSync(publishLog, '');
		const realNpm = execFileSync('bash', ['-c', 'command -v npm'], { encoding: 'utf8' }).trim();
		// Not the test runner's NODE_ENV=test and VITEST_* (n8n's lint plugin reads NODE_ENV=test as its own test run and gives every file its own test fixture's name).
		const runnerFree = Object.fromEntries(Object.entries(registry.npmEnv).filter(([name]) => name !== 'NODE_ENV' && !name.startsWith('VITEST')));
		const env: NodeJS.ProcessEnv = {
			...runnerFree,
			npm_config_userconfig: userConfig,
			PATH: `${STAND_IN}:${process.env.PATH}`,
			GITHUB_ACTIONS: 'true',
			GITHUB_REPOSITORY: repository,
			GITHUB_REF_NAME: `v${manifest.version}`,
			REHEARSAL_PUBLISH_LOG: publishLog,
			REHEARSAL_REAL_NPM: realNpm,
		};

		const workflow = parse(readFileSync(join(checkout, '.github/workflows/publish.yml'), 'utf8')) as { jobs: { publish: { steps: Step[] } } };
		const steps = workflow.jobs.publish.steps.filter((step) => step.run && !step.run.startsWith('npm install'));
		let output = '';
		for (const step of steps) {
			const stepEnv = Object.fromEntries(Object.entries(step.env ?? {}).map(([name, value]) => [name, expand(String(value), registry.token)]));
			const result = await runCommand('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', step.run!], {
				cwd: checkout,
				env: { ...env, ...stepEnv },
				stdoutFile: join(work, 'step.log'),
				timeoutMs: 600_000,
			});
			output += `\n=== ${step.name ?? step.run}\n${result.stdout}${result.stderr}`;
			if (result.code !== 0) throw new Error(`publish.yml step "${step.name ?? step.run}" failed (exit ${result.code}):${output}`.slice(-8000));
		}
		const publishes = readFileSync(publishLog, 'utf8')
			.trim()
			.split('\n')
			.filter(Boolean)
			.map((line) => {
				const [asked, folder, ...args] = line.split(' ');
				return { provenance: asked === 'yes', folder: folder.replace(checkout, '.'), args: args.join(' ') };
			});
		return { output, publishes };
	} finally {
		rmSync(work, { recursive: true, force: true });
	}
}
