/**
 * The two GitHub Actions workflows: valid by the action-validator (GitHub's workflow schema, from the
 * npm registry), and saying what the release needs: CI is .ci/run; publish runs CI first, then both
 * packages with provenance, from a version tag only, with the OIDC token npm provenance needs.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { validateWorkflow } from '@action-validator/core';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { REPO_ROOT } from '../../harness/n8n/config.mts';

const read = (name: string) => readFileSync(join(REPO_ROOT, '.github/workflows', name), 'utf8');

interface Step { id?: string; run?: string; uses?: string; env?: Record<string, string>; with?: Record<string, unknown> }
interface Job { uses?: string; needs?: string | string[]; permissions?: Record<string, string>; steps?: Step[] }
interface Workflow { on: Record<string, unknown>; jobs: Record<string, Job> }

describe('GitHub Actions workflows', () => {
	it.each(['ci.yml', 'publish.yml'])('%s passes the action-validator', (name) => {
		expect(validateWorkflow(read(name)).errors).toEqual([]);
	});

	it.each([
		['a misspelt key', '    steps:', '    stepz:'],
		['an unknown event', '  pull_request:', '  pull_requestz:'],
		['a step with both uses and run', '      - uses: actions/checkout@v4', '      - uses: actions/checkout@v4\n        run: echo'],
	])('the validator rejects %s (so the check above can fail)', (_, text, broken) => {
		const source = read('ci.yml');
		expect(source).toContain(text);
		expect(validateWorkflow(source.replace(text, broken)).errors.length).toBeGreaterThan(0);
	});

	it('ci.yml runs .ci/run and can be called by publish.yml', () => {
		const ci = parse(read('ci.yml')) as Workflow;
		expect(Object.keys(ci.on)).toContain('workflow_call');
		expect(ci.jobs.test.steps!.map((step) => step.run)).toContain('bash .ci/run');
	});

	it('publish.yml: on a version tag only, CI first, the checks before anything is published, then n8n-node release and the mock with provenance', () => {
		const publish = parse(read('publish.yml')) as Workflow;
		expect(publish.on).toEqual({ push: { tags: ['v*.*.*'] } });
		expect(publish.jobs.test.uses).toBe('./.github/workflows/ci.yml');
		const job = publish.jobs.publish;
		expect(job.needs).toBe('test');
		expect(job.permissions).toMatchObject({ 'id-token': 'write' });
		const runs = job.steps!.map((step) => step.run ?? '');
		const scan = runs.indexOf('npm run build && npm run scan');
		const release = runs.indexOf('npm run release');
		const mock = runs.findIndex((run) => run.includes('npm publish --provenance --access public -w mock-server'));
		expect(scan).toBeGreaterThanOrEqual(0);
		expect(release).toBeGreaterThan(scan);
		expect(mock).toBeGreaterThan(release);
		expect(job.steps![mock].env).toEqual({ RELEASE_MODE: 'true' });
	});

	it('publish.yml authenticates with trusted publishing unless NPM_TOKEN is set: no registry-url (its .npmrc token would win over OIDC), and the token written only when the secret is there', () => {
		const job = (parse(read('publish.yml')) as Workflow).jobs.publish;
		const setupNode = job.steps!.find((step) => step.uses?.startsWith('actions/setup-node@'));
		expect(setupNode).toBeDefined();
		expect(JSON.stringify(setupNode)).not.toContain('registry-url');
		expect(JSON.stringify(job.steps)).not.toContain('NODE_AUTH_TOKEN');
		const tokenSteps = job.steps!.filter((step) => JSON.stringify(step).includes('secrets.NPM_TOKEN'));
		expect(tokenSteps).toHaveLength(1);
		expect(tokenSteps[0].run).toMatch(/^if \[ -n "\$NPM_TOKEN" \]; then/);
	});

	it('publish.yml pushes the mock\'s image to ghcr.io after both packages, in a job of its own: the packed mock as its build context, tagged with the version', () => {
		const job = (parse(read('publish.yml')) as Workflow).jobs.image;
		expect(job.needs).toBe('publish');
		expect(job.permissions).toEqual({ contents: 'read', packages: 'write' });
		const steps = job.steps!;
		const at = (action: string) => steps.findIndex((step) => step.uses?.startsWith(`${action}@`));
		const pack = steps.findIndex((step) => step.run === 'npm run build -w mock-server\nnpm pack -w mock-server --pack-destination mock-server\n');
		const order = [pack, at('docker/setup-buildx-action'), at('docker/login-action'), at('docker/build-push-action')];
		expect(order[0]).toBeGreaterThanOrEqual(0);
		expect(order).toEqual([...order].sort((a, b) => a - b));
		expect(new Set(order).size).toBe(4);
		expect(steps[at('docker/login-action')].with).toMatchObject({ registry: 'ghcr.io', password: '${{ secrets.GITHUB_TOKEN }}' });
		const build = steps[at('docker/build-push-action')].with!;
		expect(build).toMatchObject({ context: 'mock-server', push: true, tags: '${{ steps.image.outputs.name }}:${{ steps.image.outputs.version }}' });
		const naming = steps.find((step) => step.id === 'image')!.run!;
		expect(naming).toContain('ghcr.io/${GITHUB_REPOSITORY_OWNER,,}/job-signals-mock-server');
		expect(naming).toContain('version=${GITHUB_REF_NAME#v}');
	});
});
