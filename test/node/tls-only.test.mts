// Tokens only over TLS (nodes/shared/transport/tls-only.ts): the API token and the upload access token go over https://,
// or plain http:// to this machine only. The check over a table of URL forms, then the nodes as n8n runs them: every
// request the package sends passes through it, a refusal names the URL and says to use https, and nothing is sent.
// The in-process mock (msw) intercepts every request the process makes, to any host, and logs it: an empty log is
// "nothing was sent"; for a request that is let through, the mock answers on any host.
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { http, HttpResponse } from 'msw';
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';
import { SMALL_MOCK, useMockService } from '../../harness/in-process/mock.mts';
import { runNode, type NodeRun } from '../../harness/in-process/workflow.mts';
import { PollTrigger } from '../../harness/in-process/poll.mts';
import { redirectTarget } from '../../contract/token-transport';
import { isLoopbackHostname, tokenTransportProblem } from '../../nodes/shared/transport/tls-only';
import { createTrigger } from '../trigger/trigger-under-test.mts';
import { NODE_TYPE } from './direct.mts';

const mock = useMockService({ ...SMALL_MOCK, rateLimit: 0 });

const ACCESS_TOKEN = 'upload-access-secret-42';
const USE_HTTPS = 'Use https:// (plain http:// only for a local mock on 127.0.0.1, localhost or [::1]).';
const apiRefusal = (shown: string, host: string) =>
	`The API Base URL ${shown} uses plain http:// to ${host}, which is not this machine: the API token would cross the network unencrypted, so nothing was sent. ${USE_HTTPS}`;
const appRefusal = (shown: string, host: string) =>
	`The App URL ${shown} uses plain http:// to ${host}, which is not this machine: the API token and the subscriber upload access token would cross the network unencrypted, so nothing was sent. ${USE_HTTPS}`;

describe('the check, over the URL forms that could fool it', () => {
	// Each URL as the WHATWG parser (new URL, which the HTTP clients use too) reads it: only protocol and hostname count.
	const ALLOWED: Array<[url: string, why: string]> = [
		['https://api.example.com/v2', 'https to anywhere'],
		['HTTPS://API.EXAMPLE.COM/v2', 'scheme and host are lower-cased'],
		['https://127.0.0.1.evil.com/v2', 'https to anywhere, even a misleading name'],
		['http://127.0.0.1:4010/v2', 'the local mock'],
		['http://127.255.3.4/v2', 'all of 127.0.0.0/8'],
		['http://localhost:4010/v2', 'localhost'],
		['HTTP://LOCALHOST:4010/v2', 'upper case: parsed to http: and localhost'],
		['http://[::1]:4010/v2', 'IPv6 loopback'],
		['http://[0:0:0:0:0:0:0:1]/v2', 'written out, parsed to [::1]'],
		['http://0x7f000001:4010/v2', 'hex, parsed to 127.0.0.1 (where the client connects)'],
		['http://2130706433:4010/v2', 'one decimal number, parsed to 127.0.0.1'],
		['http://0177.0.0.1/v2', 'octal, parsed to 127.0.0.1'],
		['http://127.1/v2', 'short form, parsed to 127.0.0.1'],
		['http://ｌｏｃａｌｈｏｓｔ/v2', 'full-width letters, mapped to localhost by the parser'],
		['http://127.0.0.1:4010\\@evil.com', 'a backslash ends the host for http: the host is 127.0.0.1, "@evil.com" is the path'],
	];
	const REFUSED: Array<[url: string, why: string]> = [
		['http://api.example.com/v2', 'plain http to another machine'],
		['HTTP://API.EXAMPLE.COM/v2', 'the same, upper case'],
		['http://127.0.0.1.evil.com/v2', 'a name that starts like the loopback address'],
		['http://127.0.0.1%2eevil.com/v2', 'the same, the dot percent-encoded'],
		['http://localhost.evil.com/v2', 'a name that starts with localhost'],
		['http://evil.com#@127.0.0.1', 'the loopback address in the fragment'],
		['http://127.0.0.1@evil.com/v2', 'the loopback address as a user name'],
		['http://evil.com\\@127.0.0.1', 'a backslash ends the host: evil.com'],
		['http://[::ffff:127.0.0.1]/v2', 'IPv4-mapped IPv6: reaches 127.0.0.1 only where the system maps IPv4 into IPv6; not one of the three forms'],
		['http://localhost./v2', 'a trailing dot: another name for the resolver'],
		['http://api.localhost/v2', 'a subdomain of localhost: left to the resolver'],
		['http://0.0.0.0/v2', '"any address", not loopback'],
		['http://[::]/v2', '"any address", not loopback'],
		['http://128.0.0.1/v2', 'outside 127.0.0.0/8'],
		['http://192.168.1.10/v2', 'a private network is still a network'],
		['http://evil.127.0.0.1/v2', 'does not parse: a name whose last label is a number must be an address'],
		['ftp://127.0.0.1/v2', 'another scheme, even to this machine'],
		['ws://localhost/v2', 'another scheme'],
		['file:///etc/passwd', 'another scheme'],
		['api.example.com/v2', 'no scheme: does not parse'],
	];

	it.each(ALLOWED)('sends to %s (%s)', (url) => {
		expect(tokenTransportProblem(url, 'API Base URL')).toBeUndefined();
	});

	it.each(REFUSED)('refuses %s (%s)', (url) => {
		expect(tokenTransportProblem(url, 'API Base URL')).toMatch(/^The API Base URL .* so nothing was sent\. Use https:\/\//);
	});

	it('loopback host names are exactly 127.0.0.0/8, [::1] and localhost, as the parser writes them', () => {
		for (const host of ['127.0.0.1', '127.0.0.53', '127.255.255.255', '[::1]', 'localhost']) expect(isLoopbackHostname(host), host).toBe(true);
		for (const host of ['127.0.0.1.evil.com', 'localhost.evil.com', 'localhost.', '[::ffff:7f00:1]', '0.0.0.0', '[::]', '::1', '128.0.0.1', 'evil.com']) {
			expect(isLoopbackHostname(host), host).toBe(false);
		}
	});

	it('names the URL the credential holds, without a user or password in it, the host it would go to, and says to use https', () => {
		expect(tokenTransportProblem('http://api.example.com/v2/jobs/filters', 'API Base URL', 'http://api.example.com/v2')).toBe(apiRefusal('http://api.example.com/v2', 'api.example.com'));
		expect(tokenTransportProblem('http://app.example.com/api/subscribers/upload', 'App URL', 'http://app.example.com')).toBe(appRefusal('http://app.example.com', 'app.example.com'));
		const withUser = tokenTransportProblem('http://me:hunter2@evil.com/v2/collections', 'API Base URL', 'http://me:hunter2@evil.com/v2');
		expect(withUser).toBe(apiRefusal('http://evil.com/v2', 'evil.com'));
		expect(tokenTransportProblem('http://evil.com#@127.0.0.1', 'API Base URL')).toBe(apiRefusal('http://evil.com/#@127.0.0.1', 'evil.com'));
		expect(tokenTransportProblem('ftp://127.0.0.1/v2', 'API Base URL')).toBe(`The API Base URL ftp://127.0.0.1/v2 uses the scheme ftp rather than https, so nothing was sent. ${USE_HTTPS}`);
	});
});

describe('where a redirect points: the origin is scheme, host and port (contract/token-transport.ts)', () => {
	const FROM = 'https://api.example.com/v2/jobs/filters';
	const CASES: Array<[location: string | null, expected: ReturnType<typeof redirectTarget>, why: string]> = [
		['/v2/jobs/filters/', { url: 'https://api.example.com/v2/jobs/filters/', sameOrigin: true }, 'a path: the same origin'],
		['filters?page=2', { url: 'https://api.example.com/v2/jobs/filters?page=2', sameOrigin: true }, 'relative to the URL that got it'],
		['HTTPS://API.EXAMPLE.COM:443/v2', { url: 'https://api.example.com/v2', sameOrigin: true }, 'the default port and upper case, as parsed'],
		['https://eu.api.example.com/v2', { url: 'https://eu.api.example.com/v2', sameOrigin: false }, 'a sub-domain'],
		['https://example.com/v2', { url: 'https://example.com/v2', sameOrigin: false }, 'the parent domain'],
		['http://api.example.com/v2', { url: 'http://api.example.com/v2', sameOrigin: false }, 'https → http, same host'],
		['https://api.example.com:8443/v2', { url: 'https://api.example.com:8443/v2', sameOrigin: false }, 'another port'],
		['//evil.example/v2', { url: 'https://evil.example/v2', sameOrigin: false }, 'scheme-relative: another host'],
		['https://api.example.com@evil.example/v2', { url: 'https://api.example.com@evil.example/v2', sameOrigin: false }, 'the host as a user name'],
		['http://[::1', undefined, 'a Location that does not parse'],
		[null, undefined, 'no Location'],
	];
	it.each(CASES)('%s → %o (%s)', (location, expected) => {
		expect(redirectTarget(FROM, location)).toEqual(expected);
	});
});

/** A credential pointing at the in-process mock under other URLs (the mock answers on any host). */
const credentialWith = (urls: { baseUrl?: string; appUrl?: string }): ICredentialDataDecryptedObject => ({ ...mock.credentials, accessToken: ACCESS_TOKEN, ...urls });

const getFilters = (credential: ICredentialDataDecryptedObject) =>
	runNode({ type: NODE_TYPE, parameters: { resource: 'job', operation: 'getFilters' }, credentials: { jobSignalsApi: credential } });

const uploadOne = (credential: ICredentialDataDecryptedObject) =>
	runNode({ type: NODE_TYPE, parameters: { resource: 'subscriber', operation: 'upload', emailAddresses: 'tls@example.com' }, credentials: { jobSignalsApi: credential } });

/** The run as n8n stores or shows it: items, and the error with every own property. */
const everything = (run: NodeRun) => JSON.stringify(run.items) + (run.error ? JSON.stringify(run.error, Object.getOwnPropertyNames(run.error)) : '');

const expectNoToken = (text: string) => {
	expect(text).not.toContain(String(mock.credentials.apiToken));
	expect(text).not.toContain(ACCESS_TOKEN);
};

describe('the nodes refuse plain http to another machine, before sending anything', () => {
	it('action node: a remote http:// API Base URL fails the operation, naming the URL and https; no request leaves', async () => {
		const run = await getFilters(credentialWith({ baseUrl: 'http://api.remote.example/v2/' }));
		expect(run.error?.name).toBe('NodeOperationError');
		expect(run.error?.message).toBe(apiRefusal('http://api.remote.example/v2', 'api.remote.example'));
		expect(run.error?.description).toBe('Edit the API Base URL in the Job Signals API credential.');
		expect(mock.requests()).toEqual([]);
		expectNoToken(everything(run));
	});

	it('Subscriber → Upload: a remote http:// App URL is refused; the access token is not sent', async () => {
		const run = await uploadOne(credentialWith({ appUrl: 'http://app.remote.example' }));
		expect(run.error?.message).toBe(appRefusal('http://app.remote.example', 'app.remote.example'));
		expect(run.error?.description).toMatch(/Edit the App URL in the Job Signals API credential\.$/);
		expect(mock.requests()).toEqual([]);
		expectNoToken(everything(run));
	});

	it('the webhook trigger\'s Automatic registration: a remote http:// App URL is refused on activation; no request leaves', async () => {
		const trigger = createTrigger({
			parameters: { registration: 'automatic', events: ['signal'] },
			credentials: credentialWith({ appUrl: 'http://app.remote.example/' }),
		});
		const failure = await trigger.hook('checkExists').then(() => undefined, (error: unknown) => error as Error);
		expect(failure?.message).toBe(`The webhook settings request (GET /api/webhooks) failed: ${appRefusal('http://app.remote.example', 'app.remote.example')}`);
		expectNoToken(JSON.stringify(failure, Object.getOwnPropertyNames(failure)));
		expect(mock.requests()).toEqual([]);
	});

	it('the poll trigger: a remote http:// API Base URL fails the poll visibly; no request leaves', async () => {
		const poller = new PollTrigger({
			type: 'n8n-nodes-job-signals.jobSignalsPollTrigger',
			parameters: { event: 'newJob', jobsFrom: 'search' },
			credentials: { jobSignalsApi: credentialWith({ baseUrl: 'http://api.remote.example/v2' }) },
		});
		const tick = await poller.tick();
		expect(tick.items).toBeUndefined();
		expect(tick.error?.message).toBe(apiRefusal('http://api.remote.example/v2', 'api.remote.example'));
		expect(mock.requests()).toEqual([]);
	});

	it('https:// to a remote host and http:// to this machine (each loopback form) pass, and go where the check looked', async () => {
		const cases: Array<[baseUrl: string, sentTo: string]> = [
			['https://api.remote.example/v2', 'https://api.remote.example'],
			['http://127.0.0.1:4010/v2', 'http://127.0.0.1:4010'],
			['HTTP://LOCALHOST:4010/v2', 'http://localhost:4010'],
			['http://[::1]:4010/v2', 'http://[::1]:4010'],
			['http://0x7f000001:4010/v2', 'http://127.0.0.1:4010'],
		];
		for (const [baseUrl, sentTo] of cases) {
			const from = mock.requests().length;
			const run = await getFilters(credentialWith({ baseUrl, appUrl: baseUrl.replace(/\/v2$/, '') }));
			expect(run.error, baseUrl).toBeUndefined();
			expect(run.items, baseUrl).toHaveLength(1);
			expect(mock.requests().slice(from).map((request) => new URL(request.url).origin), baseUrl).toEqual([sentTo]);
		}
		const upload = await uploadOne({ ...mock.credentials, appUrl: 'http://localhost:4010' });
		expect(upload.error).toBeUndefined();
	});
});

describe('a redirect does not carry a token where the check did not look', () => {
	/** An msw handler in front of the mock's own for one test. */
	async function withHandler(handler: ReturnType<typeof http.all>, test: () => Promise<void>) {
		const handlers = mock.service.handlers;
		handlers.unshift(handler);
		try {
			await test();
		} finally {
			handlers.splice(handlers.indexOf(handler), 1);
		}
	}

	const notFollowed = (status: number, target: string, origin: string, field = 'API Base URL') =>
		`The service answered ${status} with a redirect to ${target}, another origin than ${origin}: the credential's tokens go to the ${field}'s own origin only (a sub-domain, another port or http:// is another origin), so the redirect was not followed. If the service has moved, put its new address into the ${field}.`;

	it('https → plain http (same host, another host) and → a sub-domain: not followed; the error names the target, only the first request was sent', async () => {
		for (const target of ['http://api.redirect.example', 'http://evil.example', 'https://eu.api.redirect.example']) {
			const redirect = http.get('https://api.redirect.example/v2/jobs/filters', () => new HttpResponse(null, { status: 302, headers: { location: `${target}/v2/jobs/filters` } }));
			await withHandler(redirect, async () => {
				const from = mock.requests().length;
				const run = await getFilters(credentialWith({ baseUrl: 'https://api.redirect.example/v2' }));
				expect(run.error?.message, target).toBe(notFollowed(302, `${target}/v2/jobs/filters`, 'https://api.redirect.example'));
				expect(mock.requests().slice(from).map((request) => request.url), target).toEqual(['https://api.redirect.example/v2/jobs/filters']);
				expectNoToken(everything(run));
			});
		}
	});

	it('a redirect within the origin is followed, with the token, and the run gets the answer at its end', async () => {
		const redirect = http.get('https://api.redirect.example/v2/jobs/filters', ({ request }) =>
			new URL(request.url).searchParams.has('moved') ? undefined : new HttpResponse(null, { status: 301, headers: { location: '/v2/jobs/filters?moved=1' } }),
		);
		await withHandler(redirect, async () => {
			const from = mock.requests().length;
			const run = await getFilters(credentialWith({ baseUrl: 'https://api.redirect.example/v2' }));
			expect(run.error).toBeUndefined();
			expect(run.items).toHaveLength(1);
			const sent = mock.requests().slice(from);
			expect(sent.map((request) => request.url)).toEqual(['https://api.redirect.example/v2/jobs/filters', 'https://api.redirect.example/v2/jobs/filters?moved=1']);
			for (const request of sent) expect(request.headers.get('authorization')).toBe(`Bearer ${String(mock.credentials.apiToken)}`);
		});
	});

	it('Subscriber → Upload follows no redirect (a 307 would re-send its body, access_token included): to another origin, nor within its own', async () => {
		const cases: Array<[location: string, message: string]> = [
			['http://evil.example/api/subscribers/upload', notFollowed(307, 'http://evil.example/api/subscribers/upload', 'https://app.redirect.example', 'App URL')],
			[
				'/api/subscribers/upload-again',
				'The service answered 307 with a redirect to https://app.redirect.example/api/subscribers/upload-again: a POST request follows no redirect (it would be sent again, or turned into a GET), so it was not followed.',
			],
		];
		for (const [location, message] of cases) {
			const redirect = http.post('https://app.redirect.example/api/subscribers/upload', () => new HttpResponse(null, { status: 307, headers: { location } }));
			await withHandler(redirect, async () => {
				const from = mock.requests().length;
				const run = await uploadOne(credentialWith({ appUrl: 'https://app.redirect.example' }));
				expect(run.error?.message).toBe(message);
				expect(mock.requests().slice(from).map((request) => request.url)).toEqual(['https://app.redirect.example/api/subscribers/upload']);
				expectNoToken(everything(run));
			});
		}
	});
});

describe('no path skips the check', () => {
	const ROOT = resolve(import.meta.dirname, '../..');
	const sources = (folder: string): string[] =>
		readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
			.filter((file) => file.endsWith('.ts'))
			.map((file) => join(folder, file));
	/** The code without comments (a comment may name a helper). */
	const code = (file: string) => readFileSync(join(ROOT, file), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
	/** Anything that sends a request: n8n's helpers, the global fetch (not a method named fetch), Node's http(s). */
	const SENDS = /helpers\s*\.\s*(httpRequest|request)|requestWithAuthentication|requestOAuth|(?<![.\w])fetch\s*\((?!\s*\w+\s*:)|node:https?['"]|\bhttps?\s*\.\s*(request|get)\s*\(/;

	it('only request.ts (every node request) and credential-test.ts (the credential test) send, and both check the URL they send to first', () => {
		const senders = [...sources('nodes'), ...sources('credentials')].filter((file) => SENDS.test(code(file)));
		expect(senders.sort()).toEqual(['nodes/shared/transport/credential-test.ts', 'nodes/shared/transport/request.ts']);
		for (const file of senders) {
			const text = code(file);
			const checked = text.indexOf('tokenTransportProblem(url,');
			expect(checked, file).toBeGreaterThan(0);
			expect(checked, file).toBeLessThan(text.search(SENDS));
		}
	});
});
