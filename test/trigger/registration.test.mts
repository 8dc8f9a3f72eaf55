// The trigger's webhook methods (checkExists/create/delete) through n8n-core's HookContext,
// against the mock's webhook settings API served in-process by msw.
import { HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createWebhooks } from '../../mock-server/src/webhooks/index.mts';
import { createTrigger } from './trigger-under-test.mts';

const APP_URL = 'https://app.test';
const TOKENS: Record<string, string> = { 'token-a': 'a1', 'token-b': 'a2' };
const webhooks = createWebhooks({ organizationIdOf: (id) => `org_${id}` });
const server = setupServer(
	...webhooks.handlers(async (request) => {
		const accountId = TOKENS[request.headers.get('authorization')?.replace(/^Bearer /, '') ?? ''];
		return accountId === undefined ? errorResponse(400, 'Missing or invalid API token') : { accountId };
	}, errorResponse),
);

function errorResponse(status: number, message: string) {
	return HttpResponse.json({ status, error: 'error', message }, { status });
}

// The trigger's own receiver traffic is not part of these tests; nothing else may slip through.
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterAll(() => server.close());
beforeEach(() => webhooks.reset());

const automatic = (events: string[] = ['job_created', 'signal'], apiToken = 'token-a') =>
	createTrigger({
		parameters: { registration: 'automatic', events },
		credentials: { apiToken, appUrl: `${APP_URL}/`, baseUrl: `${APP_URL}/v2` },
	});

describe('trigger registration', () => {
	it('does nothing with manual registration (the default), and needs no credential', async () => {
		const trigger = createTrigger();
		expect(await trigger.hook('checkExists')).toBe(true);
		expect(await trigger.hook('delete')).toBe(true);
		expect(webhooks.settings.list('a1')).toEqual([]);
	});

	it('creates its entry on activation, finds it again, and removes it on deactivation', async () => {
		const trigger = automatic();
		expect(await trigger.hook('checkExists')).toBe(false);
		expect(await trigger.hook('create')).toBe(true);
		const [entry] = webhooks.settings.list('a1');
		expect(entry).toMatchObject({ url: trigger.webhookUrl, event_types: ['job_created', 'signal'] });
		expect(trigger.staticData().webhookId).toBe(entry.webhook_id);

		await trigger.activate();
		expect(webhooks.settings.list('a1')).toEqual([entry]);

		expect(await trigger.hook('delete')).toBe(true);
		expect(webhooks.settings.list('a1')).toEqual([]);
		expect(trigger.staticData().webhookId).toBeUndefined();
	});

	it('re-published with other event types, it replaces its entry instead of adding a second', async () => {
		await automatic(['job_created']).activate();
		const republished = automatic(['job_deleted', 'signal']);
		await republished.activate();
		expect(webhooks.settings.list('a1').map((entry) => entry.event_types)).toEqual([['job_deleted', 'signal']]);
	});

	it('clears ghost entries for its URL and leaves other URLs alone', async () => {
		const trigger = automatic();
		const other = webhooks.settings.create('a1', { url: 'https://elsewhere.example/hook', event_types: ['signal'] }, 1);
		for (let i = 0; i < 2; i++) webhooks.settings.create('a1', { url: trigger.webhookUrl, event_types: ['signal'] }, 1);
		await trigger.activate();
		const left = webhooks.settings.list('a1');
		expect(left).toHaveLength(2);
		expect(left).toContainEqual(other);
		expect(left.filter((entry) => entry.url === trigger.webhookUrl)).toHaveLength(1);

		await trigger.hook('delete');
		expect(webhooks.settings.list('a1')).toEqual([other]);
	});

	it('treats an entry already deleted in the web app as removed', async () => {
		const trigger = automatic();
		await trigger.activate();
		webhooks.settings.clear();
		expect(await trigger.hook('delete')).toBe(true);
	});

	it('reports a refused request as a node error that does not contain the token', async () => {
		const trigger = automatic(['signal'], 'token-wrong');
		const failure = await trigger.hook('checkExists').catch((error: unknown) => error);
		expect(failure).toBeInstanceOf(Error);
		const text = JSON.stringify(failure) + String((failure as Error).message) + String((failure as { description?: string }).description);
		expect(text).toMatch(/webhook settings request \(GET \/api\/webhooks\) failed/);
		expect(text).toMatch(/Missing or invalid API token/);
		expect(text).not.toContain('token-wrong');
	});
});
