/**
 * A small bounded cache of computed results, valid for one data version (the
 * store's `version`): the oldest entry goes once `capacity` is reached, so
 * many distinct queries cannot grow memory without bound.
 */
export class RecentResults<T> {
	private readonly entries = new Map<string, { version: number; value: T }>();

	constructor(private readonly capacity: number) {}

	get(key: string, version: number, compute: () => T): T {
		const hit = this.entries.get(key);
		if (hit && hit.version === version) return hit.value;
		const value = compute();
		this.entries.delete(key);
		this.entries.set(key, { version, value });
		if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as string);
		return value;
	}
}
