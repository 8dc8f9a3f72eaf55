import { describe, expect, it } from 'vitest';
import { oneAtATime } from '../../nodes/shared/one-at-a-time';

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('oneAtATime', () => {
	it('runs the tasks of one key one after another, in order, and of other keys alongside', async () => {
		const log: string[] = [];
		const task = (name: string) => async () => {
			log.push(`${name} start`);
			await tick();
			log.push(`${name} end`);
			return name;
		};
		const results = await Promise.all([oneAtATime('a', task('a1')), oneAtATime('a', task('a2')), oneAtATime('b', task('b1'))]);
		expect(results).toEqual(['a1', 'a2', 'b1']);
		expect(log.indexOf('a1 end')).toBeLessThan(log.indexOf('a2 start'));
		expect(log.indexOf('b1 start')).toBeLessThan(log.indexOf('a1 end'));
	});

	it('a failing task rejects its own caller only; the next task of the key still runs', async () => {
		const failed = oneAtATime('c', async () => {
			throw new Error('database down');
		});
		const next = oneAtATime('c', async () => 'ran');
		await expect(failed).rejects.toThrow('database down');
		await expect(next).resolves.toBe('ran');
	});
});
