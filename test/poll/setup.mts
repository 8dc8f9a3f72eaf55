/**
 * Shared by the poll trigger's tests: the trigger through the poll harness,
 * cycles through the mock's POST /__mock/process, and the
 * service's requests as the mock logged them.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { expect } from 'vitest';
import { MOCK_APP_URL, type MockHandle } from '../../harness/in-process/mock.mts';
import { PollTrigger, type PollOptions, type Tick } from '../../harness/in-process/poll.mts';

export const POLL_TYPE = 'n8n-nodes-job-signals.jobSignalsPollTrigger';

export interface CycleEvent {
	account_id: string;
	event_type: string;
	event_data: IDataObject;
}

export function trigger(mock: MockHandle, parameters: INodeParameters, extra: Pick<PollOptions, 'state' | 'budgetMs' | 'scheduler'> = {}): PollTrigger {
	return new PollTrigger({ type: POLL_TYPE, parameters, credentials: { jobSignalsApi: mock.credentials }, ...extra });
}

/** One cycle; the demo account's events. */
export async function processCycle(mock: MockHandle): Promise<CycleEvent[]> {
	const response = await fetch(`${MOCK_APP_URL}/__mock/process`, { method: 'POST', headers: { 'content-type': 'application/json' } });
	const { events } = (await response.json()) as { events: CycleEvent[] };
	const demo = mock.service.accounts()[0].account_id;
	return events.filter((e) => e.account_id === demo);
}

/** Requests to the service (the mock's control routes left out), from `from` on. */
export function serviceCalls(mock: MockHandle, from = 0): { path: string; query: URLSearchParams; status: number }[] {
	return mock
		.answers()
		.slice(from)
		.map((a) => ({ url: new URL(a.request.url), status: a.status }))
		.filter(({ url }) => !url.pathname.startsWith('/__mock'))
		.map(({ url, status }) => ({ path: url.pathname, query: url.searchParams, status }));
}

export const idsOf = (tick: Tick, field: string): string[] => (tick.items ?? []).map((item) => String(item.json[field]));

/** Every id in exactly one of the outputs, and nothing else. */
export function expectExactlyOnce(outputs: string[][], expected: string[]): void {
	const all = outputs.flat();
	// Each id after its first time, found with a Set: a search of the list per id is quadratic (tens of seconds at 50,000).
	const seen = new Set<string>();
	const repeated = all.filter((id) => {
		if (seen.has(id)) return true;
		seen.add(id);
		return false;
	});
	expect(repeated, 'emitted more than once').toEqual([]);
	expect([...all].sort()).toEqual([...expected].sort());
}
