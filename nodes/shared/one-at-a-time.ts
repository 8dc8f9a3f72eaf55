/**
 * Runs tasks of one key one after another in this process. n8n 2.40.7's
 * deduplication helper reads a trigger's whole row of seen ids and writes it back, so
 * two executions of one trigger that store ids at once in one worker would
 * overwrite each other's ids; in turn, they cannot. A key's entry goes when
 * its last task has settled.
 */
const tails = new Map<string, Promise<void>>();

export function oneAtATime<T>(key: string, task: () => Promise<T>): Promise<T> {
	const result = (tails.get(key) ?? Promise.resolve()).then(task);
	const tail = result.then(
		() => undefined,
		() => undefined,
	);
	tails.set(key, tail);
	void tail.then(() => {
		if (tails.get(key) === tail) tails.delete(key);
	});
	return result;
}
