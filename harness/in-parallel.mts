/**
 * A fixed number of tasks in flight, as a sender with that many connections keeps them: the benchmarks' bursts of
 * deliveries and the e2e cases' batches. Each task starts as one before it ends, in the items' order.
 */
export async function inParallel<T>(items: readonly T[], concurrency: number, task: (item: T) => Promise<unknown>): Promise<void> {
	let next = 0;
	await Promise.all(
		Array.from({ length: concurrency }, async () => {
			while (next < items.length) await task(items[next++]);
		}),
	);
}
