// The trigger's sender checks (nodes/JobSignalsTrigger/sender-checks.ts): Allowed IPs and URL Secret, through
// n8n-core's WebhookContext and HookContext (harness/in-process/trigger.mts; the sender's address is what n8n's
// express app gives a node for a given N8N_PROXY_HOPS), and Automatic registration against the in-process mock.
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';
import { eventKey, WINDOW_SIZE } from '../../nodes/JobSignalsTrigger/dedupe-window';
import { claimedInProcess, triggerKey } from '../../nodes/JobSignalsTrigger/process-window';
import { withoutSecret } from '../../nodes/JobSignalsTrigger/sender-checks';
import { MOCK_API_URL, MOCK_APP_URL, useMockService } from '../../harness/in-process/mock.mts';
import { envelope } from '../../harness/in-process/trigger-fixtures.mts';
import type { DeliveryRequest, TriggerOptions } from '../../harness/in-process/trigger.mts';
import { createTrigger } from './trigger-under-test.mts';

const SECRET = 'Zq3-v9_Lx.T~8mWpA1sD';
const OTHER_SECRET = 'Kd82-hh_Qp.Z~04nnVx7';

/** A version 1.1 trigger (the default for a new node) with these Options. */
const withOptions = (options: INodeParameters, extra: Omit<TriggerOptions, 'nodeType' | 'parameters'> = {}, parameters: INodeParameters = {}) =>
	createTrigger({ typeVersion: 1.1, ...extra, parameters: { ...parameters, options } });

const refusedBody = (error: string) => ({ received: false, error });

/** The keys the trigger's in-process window holds (the harness's node id is trigger-node). */
const inProcessWindow = (trigger: { workflowId: string }) => claimedInProcess(triggerKey(trigger.workflowId, 'trigger-node'));

describe('sender checks: off by default', () => {
	it('with no option set, any sender starts the workflow without a secret, as before the checks', async () => {
		const trigger = withOptions({});
		const answer = await trigger.deliver({ body: envelope('job_created'), remoteAddress: '198.51.100.7', headers: { 'x-forwarded-for': 'not-an-ip' }, query: { secret: 'anything' } });
		expect(answer.status).toBe(200);
		expect(answer.emitted).toHaveLength(1);
	});
});

describe('sender checks: Allowed IPs', () => {
	it.each<[string, string, boolean]>([
		['203.0.113.7', '203.0.113.7', true],
		['203.0.113.7', '203.0.113.8', false],
		['203.0.113.0/24', '203.0.113.255', true],
		['203.0.113.0/24', '203.0.114.0', false],
		['192.168.1.10/24', '192.168.1.200', true],
		['0.0.0.0/0', '198.51.100.1', true],
		['0.0.0.0/0', '2001:db8::1', false],
		['128.0.0.0/1', '128.0.0.0', true],
		['128.0.0.0/1', '127.255.255.255', false],
		['10.0.0.6/31', '10.0.0.7', true],
		['10.0.0.6/31', '10.0.0.8', false],
		['10.0.0.6/31', '10.0.0.5', false],
		['10.0.0.1/32', '10.0.0.1', true],
		['10.0.0.1/32', '10.0.0.2', false],
		['2001:db8::1', '2001:db8:0:0:0:0:0:1', true],
		['2001:db8::1', '2001:db8::2', false],
		['2001:db8::/32', '2001:db8:ffff::1', true],
		['2001:db8::/32', '2001:db9::1', false],
		['2001:db8::/127', '2001:db8::1', true],
		['2001:db8::/127', '2001:db8::2', false],
		['::1/128', '::1', true],
		['::1/128', '::2', false],
		['::/0', '2001:db8::1', true],
		['::/0', '203.0.113.7', true],
		['10.0.0.0/8', '::ffff:10.0.0.1', true],
		['10.0.0.0/8', '::ffff:a00:1', true],
		['10.0.0.0/8', '::ffff:11.0.0.1', false],
		['10.0.0.0/8', '::10.0.0.1', false],
		['::ffff:10.0.0.0/104', '10.1.2.3', true],
		['::ffff:10.0.0.0/104', '11.0.0.1', false],
		['64:ff9b::/96', '64:ff9b::203.0.113.7', true],
		['fe80::1', 'fe80::1%eth0', true],
		['198.51.100.1, 2001:db8::/32', '2001:db8::5', true],
		['198.51.100.1,\n2001:db8::/32', '198.51.100.1', true],
		['198.51.100.1, 2001:db8::/32', '198.51.100.2', false],
	])('%s and a sender at %s: allowed %s', async (allowedIps, remoteAddress, allowed) => {
		const trigger = withOptions({ allowedIps });
		const answer = await trigger.deliver({ body: envelope('signal'), remoteAddress });
		if (allowed) {
			expect(answer.status).toBe(200);
			expect(answer.emitted).toHaveLength(1);
		} else {
			expect(answer).toEqual({ status: 403, body: refusedBody(`sender ${remoteAddress} not allowed`), emitted: undefined });
		}
	});

	it('refuses a sender whose address n8n does not know, without echoing what it got', async () => {
		const trigger = withOptions({ allowedIps: '0.0.0.0/0, ::/0' }, { proxyHops: 1 });
		const answer = await trigger.deliver({ body: envelope('signal'), headers: { 'x-forwarded-for': '<script>' } });
		expect(answer).toEqual({ status: 403, body: refusedBody('sender with an unknown address not allowed'), emitted: undefined });
	});

	describe('behind a reverse proxy (N8N_PROXY_HOPS)', () => {
		const proxy = '10.0.0.2';
		const allowed = '203.0.113.0/24';

		it('with 1 hop, checks the address the proxy forwarded, not the proxy\'s', async () => {
			const trigger = withOptions({ allowedIps: allowed }, { proxyHops: 1 });
			const through = (forwardedFor: string) => trigger.deliver({ body: envelope('job_created'), remoteAddress: proxy, headers: { 'x-forwarded-for': forwardedFor } });
			expect((await through('203.0.113.9')).emitted).toHaveLength(1);
			expect((await through('198.51.100.7')).body).toEqual(refusedBody('sender 198.51.100.7 not allowed'));
			// A sender that puts an allowed address first: the proxy appends the real one, and only that one is trusted.
			expect((await through('203.0.113.9, 198.51.100.7')).body).toEqual(refusedBody('sender 198.51.100.7 not allowed'));
			// The proxy's own address is not the sender's.
			const proxyOnly = withOptions({ allowedIps: proxy }, { proxyHops: 1 });
			expect((await proxyOnly.deliver({ body: envelope('job_created'), remoteAddress: proxy, headers: { 'x-forwarded-for': '198.51.100.7' } })).status).toBe(403);
		});

		it('with 0 hops (n8n\'s default), checks the connection\'s address and ignores X-Forwarded-For', async () => {
			const trigger = withOptions({ allowedIps: allowed });
			const forged = await trigger.deliver({ body: envelope('job_created'), remoteAddress: proxy, headers: { 'x-forwarded-for': '203.0.113.9' } });
			expect(forged).toEqual({ status: 403, body: refusedBody(`sender ${proxy} not allowed`), emitted: undefined });
			const direct = withOptions({ allowedIps: proxy });
			expect((await direct.deliver({ body: envelope('job_created'), remoteAddress: proxy, headers: { 'x-forwarded-for': '198.51.100.7' } })).emitted).toHaveLength(1);
		});
	});

	it.each([
		['10.0.0.300', '"10.0.0.300" is not an IP address or CIDR range'],
		['example.com', '"example.com" is not an IP address or CIDR range'],
		['010.0.0.1', '"010.0.0.1" is not an IP address or CIDR range'],
		['fe80::1%eth0', '"fe80::1%eth0" is not an IP address or CIDR range'],
		['1:2:3:4:5:6:7:8:9', '"1:2:3:4:5:6:7:8:9" is not an IP address or CIDR range'],
		['1::2::3', '"1::2::3" is not an IP address or CIDR range'],
		['10.0.0.0/33', '"10.0.0.0/33": the prefix after "/" must be a whole number from 0 to 32 for an IPv4 range'],
		['10.0.0.0/', '"10.0.0.0/": the prefix after "/" must be a whole number from 0 to 32'],
		['2001:db8::/129', '"2001:db8::/129": the prefix after "/" must be a whole number from 0 to 128 for an IPv6 range'],
	])('refuses to activate with the entry %s, naming it', async (bad, message) => {
		const trigger = withOptions({ allowedIps: `203.0.113.7, ${bad}` });
		await expect(trigger.activate()).rejects.toThrow(`Options → Allowed IPs: ${message}`);
	});

	it('refuses to activate when the field is set but its expression gives no address', async () => {
		const trigger = withOptions({ allowedIps: '={{ "" }}' });
		await expect(trigger.activate()).rejects.toThrow('Options → Allowed IPs is set but gives no address');
	});

	it('answers 500 and starts nothing when an entry that activation did not check reaches a delivery', async () => {
		// A test listener delivery runs without the harness's production activation; the same check refuses it.
		const trigger = withOptions({ allowedIps: '203.0.113.7, 10.0.0.300' }, { mode: 'manual' });
		const answer = await trigger.deliver({ body: envelope('signal'), remoteAddress: '203.0.113.7' });
		expect(answer).toEqual({
			status: 500,
			body: refusedBody("the trigger's Allowed IPs option cannot be used: publish the workflow again to see what to fix"),
			emitted: undefined,
		});
	});
});

describe('sender checks: URL Secret', () => {
	it('starts the workflow for the right secret, and puts it in no item', async () => {
		const trigger = withOptions({ urlSecret: SECRET }, {}, { output: 'raw' });
		const answer = await trigger.deliver({ body: envelope('job_created'), query: { secret: SECRET } });
		expect(answer.status).toBe(200);
		expect(answer.emitted).toHaveLength(1);
		expect(answer.output).toHaveLength(1);
		expect(JSON.stringify([answer.body, answer.emitted, answer.output])).not.toContain(SECRET);
	});

	it.each<[string, IDataObject]>([
		['missing', {}],
		['empty', { secret: '' }],
		['wrong, same length', { secret: `${SECRET.slice(0, -1)}X` }],
		['a prefix of it', { secret: SECRET.slice(0, -1) }],
		['longer', { secret: `${SECRET}x` }],
		['another secret', { secret: OTHER_SECRET }],
		['given twice', { secret: [SECRET, SECRET] }],
		['under another name', { token: SECRET }],
	])('answers 403 for a secret %s, without echoing either secret', async (_name, query) => {
		const trigger = withOptions({ urlSecret: SECRET });
		const answer = await trigger.deliver({ body: envelope('job_created'), query });
		expect(answer).toEqual({ status: 403, body: refusedBody('missing or wrong secret'), emitted: undefined });
		expect(JSON.stringify(answer.body)).not.toContain(SECRET.slice(0, 8));
	});

	it('checks both: an allowed sender with a wrong secret and a refused sender with the right one are both 403', async () => {
		const trigger = withOptions({ allowedIps: '203.0.113.0/24', urlSecret: SECRET });
		expect((await trigger.deliver({ body: envelope('signal'), remoteAddress: '203.0.113.5', query: { secret: OTHER_SECRET } })).body).toEqual(refusedBody('missing or wrong secret'));
		expect((await trigger.deliver({ body: envelope('signal'), remoteAddress: '198.51.100.5', query: { secret: SECRET } })).body).toEqual(refusedBody('sender 198.51.100.5 not allowed'));
		expect((await trigger.deliver({ body: envelope('signal'), remoteAddress: '203.0.113.5', query: { secret: SECRET } })).emitted).toHaveLength(1);
	});

	it('checks the sender before the body: a refused sender gets 403 whatever it sends, an allowed one still gets 400 for a bad body', async () => {
		const trigger = withOptions({ urlSecret: SECRET });
		expect((await trigger.deliver({ body: 'not an envelope' })).status).toBe(403);
		const allowed = await trigger.deliver({ body: 'not an envelope', query: { secret: SECRET } });
		expect(allowed.status).toBe(400);
		expect((allowed.body as { error: string }).error).toMatch(/not a webhook event envelope/);
	});

	it('works on version 1 too, beside its Output option', async () => {
		const trigger = createTrigger({ parameters: { options: { urlSecret: SECRET, allowedIps: '203.0.113.0/24', output: 'envelope' } } });
		const sent = envelope('signal');
		expect((await trigger.deliver({ body: sent, remoteAddress: '203.0.113.5' })).status).toBe(403);
		expect((await trigger.deliver({ body: sent, remoteAddress: '203.0.113.5', query: { secret: SECRET } })).emitted).toEqual([sent]);
	});

	it.each([
		['shorter than 16 characters', 'short-secret', 'Options → URL Secret is shorter than 16 characters'],
		['longer than 128 characters', 'x'.repeat(129), 'Options → URL Secret is longer than 128 characters'],
		['with a character that needs encoding', 'a secret with spaces&more', 'Options → URL Secret has a character other than letters, digits, "-", "_", "." and "~"'],
		['set by an expression that gives nothing', '={{ "" }}', 'Options → URL Secret is set but gives an empty value'],
	])('refuses to activate with a secret %s, without showing it', async (_name, urlSecret, message) => {
		const trigger = withOptions({ urlSecret });
		const failure = (await trigger.activate().catch((error: unknown) => error)) as Error & { description?: string };
		expect(failure).toBeInstanceOf(Error);
		expect(failure.message).toBe(message);
		if (!urlSecret.startsWith('=')) expect(JSON.stringify({ ...failure, message: failure.message, description: failure.description, stack: failure.stack })).not.toContain(urlSecret);
	});
});

describe('sender checks: the secret in errors', () => {
	it('is not in the copy of the node that another activation error carries', async () => {
		const trigger = withOptions({ urlSecret: SECRET }, {}, { jobFilters: { companies: 'not a company!' } });
		const failure = (await trigger.activate().catch((error: unknown) => error)) as Error;
		expect(failure.message).toMatch(/Companies: "not a company!"/);
		expect(JSON.stringify({ ...failure, message: failure.message, stack: failure.stack })).not.toContain(SECRET);
		expect((failure as unknown as { node: { parameters: { options: IDataObject } } }).node.parameters.options.urlSecret).toBe('[redacted]');
	});
});

describe('sender checks: a refused request starts nothing and leaves both dedupe windows alone', () => {
	it.each<[string, INodeParameters, Partial<DeliveryRequest>, Partial<DeliveryRequest>]>([
		['without the secret', { urlSecret: SECRET }, { query: {} }, { query: { secret: SECRET } }],
		['from an address not allowed', { allowedIps: '203.0.113.0/24' }, { remoteAddress: '198.51.100.7' }, { remoteAddress: '203.0.113.7' }],
	])('a forged delivery %s of a real event id, then the real delivery: exactly one execution', async (_name, options, forged, real) => {
		const trigger = withOptions(options);
		const sent = envelope('job_created');
		const forgedAnswer = await trigger.deliver({ body: sent, ...forged });
		expect(forgedAnswer.status).toBe(403);
		expect(forgedAnswer.emitted).toBeUndefined();
		// Neither window holds the id: nothing claimed in the process, nothing written to static data.
		expect(inProcessWindow(trigger)).toEqual([]);
		expect(trigger.staticDataWrites()).toBe(0);
		expect(trigger.staticData().seenEventKeys).toBeUndefined();
		const answers = [await trigger.deliver({ body: sent, ...real }), await trigger.deliver({ body: sent, ...real })];
		expect(answers.map((answer) => answer.output?.length)).toEqual([1, undefined]);
		expect(answers[1].body).toEqual({ received: true, emitted: false, reason: 'duplicate webhook_event_id' });
		expect(trigger.staticData().seenEventKeys).toBe(`\n${eventKey(sent.webhook_event_id)}\n`);
	});

	it(`a flood of ${WINDOW_SIZE + 1} forged deliveries cannot push a real event out of the windows`, async () => {
		const trigger = withOptions({ urlSecret: SECRET });
		const real = envelope('signal');
		expect((await trigger.deliver({ body: real, query: { secret: SECRET } })).emitted).toHaveLength(1);
		const saved = trigger.savedStaticData();
		for (let i = 0; i <= WINDOW_SIZE; i++) {
			expect((await trigger.deliver({ body: envelope('signal', { webhook_event_id: `forged-${i}` }), query: { secret: 'guess' } })).status).toBe(403);
		}
		expect(trigger.savedStaticData()).toBe(saved);
		expect(trigger.staticDataWrites()).toBe(1);
		expect(inProcessWindow(trigger)).toEqual([eventKey(real.webhook_event_id)]);
		// The service's retry of the real event is still a repeat.
		expect((await trigger.deliver({ body: real, query: { secret: SECRET } })).body).toEqual({ received: true, emitted: false, reason: 'duplicate webhook_event_id' });
	});
});

describe('sender checks: Automatic registration', () => {
	const mock = useMockService();
	const settings = () => mock.service.webhooks.settings.list('acc_demo');
	const automatic = (options: INodeParameters, apiToken = mock.credentials.apiToken as string) =>
		withOptions(options, { credentials: { apiToken, appUrl: `${MOCK_APP_URL}/`, baseUrl: MOCK_API_URL } }, { registration: 'automatic', events: ['job_created'] });

	it('registers the URL with the secret, recognises its entry again, and replaces it when the secret changes', async () => {
		const first = automatic({ urlSecret: SECRET });
		await first.activate();
		const [entry] = settings();
		expect(settings()).toHaveLength(1);
		expect(entry.url).toBe(`${first.webhookUrl}?secret=${SECRET}`);

		// Activated again with the same secret (n8n restarted): the entry stays as it is.
		await automatic({ urlSecret: SECRET }).activate();
		expect(settings()).toEqual([entry]);

		// The secret changed: one entry, with the new secret; the old URL no longer delivers anywhere.
		await automatic({ urlSecret: OTHER_SECRET }).activate();
		expect(settings().map((setting) => setting.url)).toEqual([`${first.webhookUrl}?secret=${OTHER_SECRET}`]);

		// No secret any more: the plain URL.
		const plain = automatic({});
		await plain.activate();
		expect(settings().map((setting) => setting.url)).toEqual([first.webhookUrl]);

		// Deactivating removes the node's entries, with or without a secret.
		mock.service.webhooks.settings.create('acc_demo', { url: `${first.webhookUrl}?secret=${SECRET}`, event_types: ['signal'] }, 1);
		await plain.hook('delete');
		expect(settings()).toEqual([]);
	});

	it('keeps the secret out of a registration error', async () => {
		const trigger = automatic({ urlSecret: SECRET }, 'token-wrong');
		const failure = (await trigger.activate().catch((error: unknown) => error)) as Error & { description?: string };
		expect(failure).toBeInstanceOf(Error);
		expect(failure.message).toMatch(/webhook settings request \(GET \/api\/webhooks\) failed/);
		expect(JSON.stringify({ ...failure, message: failure.message, description: failure.description, stack: failure.stack })).not.toContain(SECRET);
	});

	it('withoutSecret redacts the secret wherever a service\'s words put it in an error', () => {
		const said = `Invalid webhook setting: https://n8n.example/webhook/x?secret=${SECRET} is not reachable`;
		const error = Object.assign(new Error(said), { description: said, messages: [said], context: { data: { url: said } }, cause: new Error(said) });
		const cleaned = withoutSecret(error, SECRET);
		expect(cleaned).toBe(error);
		const text = JSON.stringify({ ...cleaned, message: cleaned.message, stack: cleaned.stack, cause: (cleaned.cause as Error).message });
		expect(text).not.toContain(SECRET);
		expect(cleaned.message).toBe('Invalid webhook setting: https://n8n.example/webhook/x?secret=[redacted] is not reachable');
		expect(cleaned.messages).toEqual([cleaned.message]);
	});
});
