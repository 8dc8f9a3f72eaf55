// The trigger's webhook methods (checkExists/create/delete) through n8n-core's HookContext,
// against the mock's webhook settings API served in-process by msw (reset before each test;
// the trigger's own receiver traffic is not part of these tests, and nothing else may slip through).
import { describe, expect, it } from 'vitest';
import { MOCK_API_URL, MOCK_APP_URL, useMockService } from '../../harness/in-process/mock.mts';
import { createTrigger } from './trigger-under-test.mts';

const mock = useMockService();
/** The mock's webhooks, and its demo account (the trigger's credential below). */
const webhooks = { get settings() { return mock.service.webhooks.settings; } };
const A1 = 'acc_demo';

const automatic = (events: string[] = ['job_created', 'signal'], apiToken = mock.credentials.apiToken as string) =>
	createTrigger({
		parameters: { registration: 'automatic', events },
		credentials: { apiToken, appUrl: `${MOCK_APP_URL}/`, baseUrl: MOCK_API_URL },
	});

describe('trigger registration', () => {
	it('does nothing with manual registration (the default), and needs no credential', async () => {
		const trigger = createTrigger();
		expect(await trigger.hook('checkExists')).toBe(true);
		expect(await trigger.hook('delete')).toBe(true);
		expect(webhooks.settings.list(A1)).toEqual([]);
	});

	it('creates its entry on activation, finds it again, and removes it on deactivation', async () => {
		const trigger = automatic();
		expect(await trigger.hook('checkExists')).toBe(false);
		expect(await trigger.hook('create')).toBe(true);
		const [entry] = webhooks.settings.list(A1);
		expect(entry).toMatchObject({ url: trigger.webhookUrl, event_types: ['job_created', 'signal'] });
		expect(trigger.staticData().webhookId).toBe(entry.webhook_id);

		await trigger.activate();
		expect(webhooks.settings.list(A1)).toEqual([entry]);

		expect(await trigger.hook('delete')).toBe(true);
		expect(webhooks.settings.list(A1)).toEqual([]);
		expect(trigger.staticData().webhookId).toBeUndefined();
	});

	it('re-published with other event types, it replaces its entry instead of adding a second', async () => {
		await automatic(['job_created']).activate();
		const republished = automatic(['job_deleted', 'signal']);
		await republished.activate();
		expect(webhooks.settings.list(A1).map((entry) => entry.event_types)).toEqual([['job_deleted', 'signal']]);
	});

	it('clears ghost entries for its URL and leaves other URLs alone', async () => {
		const trigger = automatic();
		const other = webhooks.settings.create(A1, { url: 'https://elsewhere.example/hook', event_types: ['signal'] }, 1);
		for (let i = 0; i < 2; i++) webhooks.settings.create(A1, { url: trigger.webhookUrl, event_types: ['signal'] }, 1);
		await trigger.activate();
		const left = webhooks.settings.list(A1);
		expect(left).toHaveLength(2);
		expect(left).toContainEqual(other);
		expect(left.filter((entry) => entry.url === trigger.webhookUrl)).toHaveLength(1);

		await trigger.hook('delete');
		expect(webhooks.settings.list(A1)).toEqual([other]);
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
		expect(text).toMatch(/Invalid API token/);
		expect(text).not.toContain('token-wrong');
	});
});
