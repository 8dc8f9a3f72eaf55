/** Event data and envelopes shaped like the contract's schemas, for the trigger's unit tests. */
import { WEBHOOK_EVENTS } from '../../contract/events';
import type { Job, Signal, WebhookEvent } from '../../contract/schemas';

export const job: Job = {
	job_id: 'job_1',
	job_title: 'Platform Engineer',
	url_job: 'https://acme.example/jobs/1',
	description: 'Build the platform.',
	location: 'Berlin',
	region: 'Europe',
	categories: ['DevOps'],
	job_tags: ['kubernetes'],
	source_id: 'src_1',
	url_source: 'acme.example',
	source_name: 'Acme',
	created_at: 1_763_000_000,
	updated_at: 1_763_000_100,
};

export const signal: Signal = {
	signal_id: 'sig_1',
	created_at: 1_763_000_000,
	date: '2025-11-13',
	info: { group: 'changes', category: 'url', type: 'domain-url-change' },
	evidence_list: ['Moved to acme.example'],
	jobs_list: [],
	signal_match: 2,
	signal_severity: 1,
	signal_classification: 'direct',
	signal_recency: 'active',
	signal_start_at: 1_762_000_000,
	signal_recent_at: 1_763_000_000,
	current_value: 'acme.example',
	previous_value: 'acme-old.example',
	source_id: 'src_1',
	source_name: 'Acme',
	source_description: 'Makes anvils.',
	url_source: 'acme.example',
};

let counter = 0;

export function envelope(
	eventType: WebhookEvent['event_type'],
	overrides: Partial<WebhookEvent> = {},
): WebhookEvent {
	counter += 1;
	const eventData =
		WEBHOOK_EVENTS[eventType].carries === 'signal' ? signal : eventType === 'job_deleted' ? { ...job, deleted_at: 1_763_000_200 } : job;
	return {
		webhook_event_id: `whe_test_${counter}`,
		webhook_id: 'wh_test',
		organization_id: 'org_test',
		event_type: eventType,
		event_data: eventData,
		created_at: 1_763_000_300,
		updated_at: 1_763_000_301,
		...overrides,
	};
}
