// The credential test's words for each answer GET {base_url}/collections can get (credential-messages.ts).
import { describe, expect, it } from 'vitest';
import { answerMessage, INVALID_TOKEN } from '../../nodes/shared/credential-messages';

const url = 'https://api.example.com/v2';
const json = (status: number, body: unknown, statusText = '') => answerMessage(url, { status, statusText, text: JSON.stringify(body) });

describe('credential test messages', () => {
	it('the service\'s good answer passes; its refusals of the token read as the token', () => {
		expect(json(200, { data: [] })).toBeUndefined();
		expect(json(400, { status: 400, error: 'Bad Request', message: 'Invalid API token' })).toBe(INVALID_TOKEN);
		expect(json(401, { message: 'Unauthorized' })).toBe(INVALID_TOKEN);
		expect(json(403, {})).toBe(INVALID_TOKEN);
	});

	it('something else at the address: a web page, a JSON that is not the collections list, a 404', () => {
		const page = answerMessage(url, { status: 200, statusText: 'OK', text: '<!doctype html><html><head><title>Welcome to nginx</title></head></html>' });
		expect(page).toBe('The API Base URL answers, but not as the service: https://api.example.com/v2 answered 200 with an HTML page ("Welcome to nginx"). Use the API root including its version, e.g. https://api.example.com/v2.');
		expect(json(200, { hello: 'world' })).toMatch(/^The API Base URL answers, but not as the service: .* answered 200 with 17 characters of text/);
		expect(json(404, { status: 404, error: 'Not Found', message: 'No route' })).toMatch(/^The API Base URL answers, but not as the service: .* answered 404/);
		expect(answerMessage(url, { status: 502, statusText: 'Bad Gateway', text: '<html><title>502 Bad Gateway</title></html>' })).toMatch(/^The API Base URL answers, but not as the service: .* answered 502 with an HTML page \("502 Bad Gateway"\)/);
	});

	it('the service\'s own other errors keep its message', () => {
		expect(json(500, { status: 500, error: 'Internal Server Error', message: 'Try again later' })).toBe('The service answered 500: Try again later');
		expect(json(429, { message: 'Too many requests' })).toBe('The service is rate limiting this token right now (429): try again in a minute.');
	});
});
