// The rate limit's window (60 s × time scale) gives a fresh budget once it has passed.
import { describe, expect, it } from 'vitest';
import { call, DEMO_TOKEN, SMALL, useMock } from './harness.mts';

const LIMIT = 3;
const TIME_SCALE = 0.1;
const WINDOW_MS = 60_000 * TIME_SCALE;
// 6 s: four in-process calls fit in it with a wide margin on a loaded machine; the test waits one window.
useMock({ ...SMALL, rateLimit: LIMIT, timeScale: TIME_SCALE });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function spend(n: number): Promise<number[]> {
	const statuses: number[] = [];
	for (let i = 0; i < n; i++) statuses.push((await call('/collections', { token: DEMO_TOKEN })).status);
	return statuses;
}

describe('rate limit window', () => {
	it('gives a fresh budget once the window has passed', async () => {
		expect(await spend(LIMIT + 1)).toEqual([200, 200, 200, 429]);
		await sleep(WINDOW_MS + 100);
		expect(await spend(LIMIT + 1)).toEqual([200, 200, 200, 429]);
	}, 30_000);
});
