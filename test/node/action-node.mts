/** The action node run in-process against a small mock (no rate limit in the way), and a company to run it on. */
import type { INodeParameters } from 'n8n-workflow';
import { SMALL_MOCK, useMockService } from '../../harness/in-process/mock.mts';
import { runNode } from '../../harness/in-process/workflow.mts';
import { api, NODE_TYPE } from './direct.mts';

type Json = Record<string, unknown>;

/** Starts the mock for the file's tests; runs the node at `defaultVersion` unless a version is given. */
export function useActionNode(defaultVersion?: number) {
	const mock = useMockService({ ...SMALL_MOCK, rateLimit: 1_000_000 });
	return (parameters: INodeParameters, typeVersion = defaultVersion) =>
		runNode({ type: NODE_TYPE, typeVersion, parameters, credentials: { jobSignalsApi: mock.credentials } });
}

/** The first collection, and the first company in it. */
export async function aSource() {
	const { data } = await api('/collections');
	const collectionId = (data as Json[])[0].collection_id as string;
	return { collectionId, source: ((await api(`/collections/${collectionId}/sources`)).data as Json[])[0] };
}
