// `record` over a connection that is reset before the answer (WireMock's CONNECTION_RESET_BY_PEER fault, a TCP
// reset): the GET is sent again, at most 3 more times, so a long walk does not end on one reset; past that, exit 1.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startMockServer, type RunningMockServer } from '../src/server.mts';
import { runCli } from './cli-process.mts';
import { VOLUME_TOKEN } from './harness.mts';

let upstream: RunningMockServer;
let dir: string;
beforeAll(async () => {
	upstream = await startMockServer({ seed: 11, sources: 20, jobs: 150, signals: 100, rateLimit: 0, port: 0 });
	dir = mkdtempSync(join(tmpdir(), 'mock-record-resets-'));
});
afterAll(async () => {
	await upstream.close();
	rmSync(dir, { recursive: true, force: true });
});
beforeEach(async () => {
	await upstream.service.reset();
	expect((await fetch(`${upstream.appUrl}/__admin/mappings`, { method: 'DELETE' })).status).toBe(200);
});

const stub = async (mapping: object) => {
	const answer = await fetch(`${upstream.appUrl}/__admin/mappings`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(mapping) });
	expect(answer.status).toBe(201);
};
const record = async (out: string) => {
	const cli = runCli(['record', '--from', upstream.apiUrl, '--token', VOLUME_TOKEN, '--out', join(dir, out)]);
	const status = await cli.exited;
	return { status, ...cli.output() };
};
const jobCalls = () => upstream.service.requests().data.filter((e) => e.path === '/v2/jobs').map((e) => e.status);
const reset = { request: { method: 'GET', urlPath: '/v2/jobs' }, response: { fault: 'CONNECTION_RESET_BY_PEER' } };

describe('a reset connection', () => {
	it('once: the same page is asked again and the walk ends as usual', async () => {
		await stub({ ...reset, scenarioName: 'one reset', requiredScenarioState: 'Started', newScenarioState: 'answered' });
		const result = await record('once.json');
		expect(result.status, result.stderr).toBe(0);
		expect(jobCalls()).toEqual([0, 200]);
	}, 60_000);

	it('every time: 4 tries, then exit 1 naming them; the pages before it kept', async () => {
		await stub(reset);
		const result = await record('always.json');
		expect(result.status).toBe(1);
		expect(result.stderr).toMatch(/^job-signals-mock record: cannot reach http:\/\/127\.0\.0\.1:\d+\/v2\/jobs\?offset=0: (UND_ERR_SOCKET|ECONNRESET) \(4 tries\); 1 pages kept in \S+always\.json\.partial: run again with --resume to continue$/m);
		expect(jobCalls()).toEqual([0, 0, 0, 0]);
	}, 60_000);
});
