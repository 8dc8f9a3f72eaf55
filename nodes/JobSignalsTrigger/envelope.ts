/**
 * Checks a delivery's body against the spec's webhook envelope without a
 * schema library (node code has no runtime dependencies). Unknown extra fields
 * are allowed, so a service that adds fields keeps working; everything the
 * node reads is checked, so no body can make it throw later.
 */
import type { IDataObject } from 'n8n-workflow';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../shared/contract';

export interface Envelope {
	webhook_event_id: string;
	webhook_id: string;
	organization_id: string;
	event_type: WebhookEventType;
	event_data: IDataObject;
	created_at: number;
	updated_at: number;
}

export type EnvelopeCheck = { valid: true; envelope: Envelope } | { valid: false; reason: string };

/**
 * Ids are kept in the dedupe window as newline-separated text, so they may not
 * hold control characters; 200 characters is far above any id the service sends.
 */
const ID_PATTERN = /^\P{Cc}{1,200}$/u;

const JOB_EVENT_TYPES: readonly string[] = ['job_created', 'job_updated', 'job_deleted'];

function isObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isTimestamp(value: unknown): value is number {
	return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

export function checkEnvelope(body: unknown): EnvelopeCheck {
	const invalid = (reason: string): EnvelopeCheck => ({ valid: false, reason });
	if (!isObject(body)) return invalid('the body must be a JSON object (the webhook event envelope)');
	for (const field of ['webhook_event_id', 'webhook_id', 'organization_id'] as const) {
		const value = body[field];
		if (typeof value !== 'string' || !ID_PATTERN.test(value)) {
			return invalid(`${field} must be a string of 1 to 200 characters without control characters`);
		}
	}
	const eventType = body.event_type;
	if (typeof eventType !== 'string' || !(WEBHOOK_EVENT_TYPES as readonly string[]).includes(eventType)) {
		return invalid(`event_type must be one of ${WEBHOOK_EVENT_TYPES.join(', ')}`);
	}
	if (!isObject(body.event_data)) return invalid('event_data must be an object');
	if (JOB_EVENT_TYPES.includes(eventType) && typeof body.event_data.job_id !== 'string') {
		return invalid(`event_data.job_id must be a string for ${eventType}`);
	}
	for (const field of ['created_at', 'updated_at'] as const) {
		if (!isTimestamp(body[field])) return invalid(`${field} must be a Unix timestamp (a number)`);
	}
	return { valid: true, envelope: body as unknown as Envelope };
}
