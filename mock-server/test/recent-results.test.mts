// The bounded per-version cache behind job search and signals pages.
import { describe, expect, it } from 'vitest';
import { RecentResults } from '../src/data/recent-results.mts';

describe('RecentResults', () => {
	it('computes once per key and version, and forgets the least recently stored key past its capacity', () => {
		const cache = new RecentResults<string>(2);
		const computed: string[] = [];
		const get = (key: string, version: number) => cache.get(key, version, () => (computed.push(`${key}@${version}`), `${key}@${version}`));
		expect([get('a', 1), get('a', 1), get('b', 1)]).toEqual(['a@1', 'a@1', 'b@1']);
		expect(get('a', 2)).toBe('a@2');
		get('c', 2);
		get('a', 2);
		get('b', 1);
		expect(computed).toEqual(['a@1', 'b@1', 'a@2', 'c@2', 'b@1']);
	});
});
