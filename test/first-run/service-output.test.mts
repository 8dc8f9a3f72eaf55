/**
 * A service's output() is the latest 200,000 characters it printed, in order, however many chunks they
 * came in: a chatty process (Prism logs each request) must neither grow the parent's memory nor lose
 * the lines an error message shows.
 */
import { describe, expect, it } from 'vitest';
import { startService } from '../../harness/n8n/processes.mts';

describe('startService output', () => {
	it('keeps the latest 200,000 characters of many chunks, in order', async () => {
		// 5,000 numbered lines of 100 characters (500,000 in all), written one by one so they arrive in many chunks.
		const script = `for (let i = 0; i < 5000; i++) process.stdout.write(String(i).padStart(6, '0') + '.'.repeat(93) + '\\n'); process.stdout.write('END');`;
		const service = startService(process.execPath, ['-e', script], { label: 'chatty' });
		// 'close', not 'exit': the pipes are read to their end.
		await new Promise((resolve) => service.child.once('close', resolve));
		const output = service.output();
		expect(output).toHaveLength(200_000);
		expect(output.endsWith('END')).toBe(true);
		const numbers = output
			.split('\n')
			.slice(1, -1)
			.map((line) => Number(line.slice(0, 6)));
		// The last full line is 4999; each line follows the one before it.
		expect(numbers.at(-1)).toBe(4999);
		expect(numbers.every((n, i) => i === 0 || n === numbers[i - 1] + 1)).toBe(true);
	});
});
