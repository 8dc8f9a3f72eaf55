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

interface Step { run?: string; uses?: string; env?: Record<string, string> }
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

	it('publish.yml: on a version tag only, CI first, both packages with provenance and public access', () => {
		const publish = parse(read('publish.yml')) as Workflow;
		expect(publish.on).toEqual({ push: { tags: ['v*.*.*'] } });
		expect(publish.jobs.test.uses).toBe('./.github/workflows/ci.yml');
		const job = publish.jobs.publish;
		expect(job.needs).toBe('test');
		expect(job.permissions).toMatchObject({ 'id-token': 'write' });
		const publishes = job.steps!.filter((step) => /npm publish/.test(step.run ?? ''));
		expect(publishes.map((step) => step.run!.split('\n').find((line) => line.startsWith('npm publish')))).toEqual([
			'npm publish --provenance --access public',
			'npm publish --provenance --access public -w mock-server',
		]);
		for (const step of publishes) expect(step.env).toMatchObject({ RELEASE_MODE: 'true', NODE_AUTH_TOKEN: '${{ secrets.NPM_TOKEN }}' });
		// The tarball's official checks run before anything is published.
		const checks = job.steps!.findIndex((step) => step.run === 'npm run build && npm run lint && npm run scan');
		expect(checks).toBeGreaterThanOrEqual(0);
		expect(checks).toBeLessThan(job.steps!.indexOf(publishes[0]));
	});
});
