// Search and Locations are checked against the service's syntax before anything is sent; hints say how the service reads the rest.
import { describe, expect, it } from 'vitest';
import { SMALL_MOCK, useMockService } from '../../harness/in-process/mock.mts';
import { runNode } from '../../harness/in-process/workflow.mts';
import { checkSearchSyntax, describeReading, rewriteOperators } from '../../nodes/shared/search-syntax';
import { NODE_TYPE } from './direct.mts';

const mock = useMockService({ ...SMALL_MOCK, rateLimit: 1_000_000 });

const search = (parameters: Record<string, unknown>) =>
	runNode({ type: NODE_TYPE, parameters: { resource: 'job', operation: 'search', returnAll: true, ...parameters }, credentials: { jobSignalsApi: mock.credentials } });
const jobCalls = () => mock.answers().filter((a) => new URL(a.request.url).pathname === '/v2/jobs').length;
const messages = (value: string) => checkSearchSyntax('Search', value).errors.map((e) => e.message);

describe('search syntax', () => {
	it('errors on what other search boxes take and this service does not: AND/OR/NOT, quotes, grouping parentheses, empty parts', () => {
		expect(messages('(python AND "senior" OR +,|-')).toEqual([
			'Search: quotes are not part of the service\'s syntax',
			'Search: AND, OR and NOT are not operators for the service',
			'Search: parentheses do not group in the service\'s syntax',
			'Search: an empty alternative',
			'Search: a + with no word after it',
			'Search: a - with no word after it',
		]);
		expect(messages('a,,b')).toEqual(['Search: an empty entry']);
		expect(messages(',a')).toEqual(['Search: an empty entry']);
		expect(messages('a||b')).toEqual(['Search: an empty alternative']);
		expect(messages('python+')).toEqual(['Search: a + with no word after it']);
		expect(messages('-')).toEqual(['Search: a - with no word after it']);
		expect(messages('python,-')).toEqual(['Search: a - with no word after it']);
		expect(messages('(python,golang)+senior')).toEqual(['Search: parentheses do not group in the service\'s syntax']);
	});

	it('accepts the service\'s own syntax, words with inner dashes and plain phrases', () => {
		for (const valid of ['+python+senior,golang,-intern', '+x', 'front-end', 'senior engineer', 'python|golang,+remote+-intern', 'R&D']) {
			expect(checkSearchSyntax('Search', valid), valid).toEqual({ errors: [], hints: [] });
		}
	});

	it('rewrites AND/OR/NOT between words into the service\'s syntax in the error', () => {
		expect(rewriteOperators('python AND senior OR golang')).toBe('+python+senior,golang');
		expect(rewriteOperators('python AND NOT intern')).toBe('+python+-intern');
		expect(rewriteOperators('NOT intern')).toBe('-intern');
		expect(rewriteOperators('(python OR golang) AND senior')).toBeUndefined();
		expect(checkSearchSyntax('Search', 'python AND senior OR golang').errors[0].description).toContain('Write +python+senior,golang.');
	});

	it('gives a hint, with the service\'s reading, where the text can be meant literally', () => {
		const oregon = checkSearchSyntax('Locations', 'Portland, OR');
		expect(oregon.errors).toEqual([]);
		expect(oregon.hints.map((h) => h.message)).toEqual([
			'Locations: AND, OR or NOT on its own is read as a word (OR as in Oregon, matched anywhere in the text, so "or" also matches "work"); for alternatives, separate them with commas. The service reads "Portland, OR" as: "portland", or "or".',
		]);
		expect(checkSearchSyntax('Search', 'Entwickler (m/w/d)').hints[0].message).toContain('read as characters of the text');
		expect(checkSearchSyntax('Search', 'python*').hints[0].message).toContain('* is not a wildcard');
		expect(describeReading('+python+senior,golang,-intern')).toBe('"python" and "senior", or "golang"; never "intern"');
	});

	it('the action node stops a bad search before sending it, with the error and what to write', async () => {
		const before = jobCalls();
		const run = await search({ search: 'python AND senior' });
		expect(run.error?.message).toBe('Search: AND, OR and NOT are not operators for the service');
		expect(run.error?.description).toContain('Write +python+senior.');
		const locations = await search({ locations: 'Berlin,,Munich' });
		expect(locations.error?.message).toBe('Locations: an empty entry');
		expect(jobCalls()).toBe(before);
	});

	it('a valid search that matches nothing says so in a hint, and a literal reading gets its hint beside the results', async () => {
		const empty = await search({ search: '+zzzqqq+python' });
		expect(empty.error).toBeUndefined();
		expect(empty.items).toEqual([]);
		expect(empty.hints).toEqual([{ message: 'The search is valid and matched no job. Search read as "zzzqqq" and "python".', type: 'info', location: 'outputPane' }]);
		const literal = await search({ search: 'engineer*', returnAll: false, limit: 1 });
		expect(literal.error).toBeUndefined();
		expect(literal.hints.map((h) => h.type)).toEqual(['warning', 'info']);
		expect(literal.hints[0].message).toContain('The service reads "engineer*" as: "engineer*".');
		const found = await search({ search: 'engineer', returnAll: false, limit: 1 });
		expect(found.items).toHaveLength(1);
		expect(found.hints).toEqual([]);
	});
});
