// The deprecation notice the spec calls for: on every Job, Source and Collection operation, on no Signal or Subscriber one.
import { describe, expect, it } from 'vitest';
import { loadPackages } from '../../harness/in-process/packages.mts';
import { workflowRuntime } from '../../harness/in-process/runtime.mts';
import { NODE_TYPE } from './direct.mts';

describe('deprecation notice', () => {
	it('shows for the jobs and sources API (collections included), as the editor decides what to show', async () => {
		const packages = await loadPackages();
		for (const version of [1, 2]) {
			const { description } = packages.nodeTypes.getByNameAndVersion(NODE_TYPE, version);
			const notice = description.properties.find((p) => p.name === 'deprecationNotice')!;
			expect(notice.type).toBe('notice');
			expect(notice.displayName).toMatch(/deprecated/);
			for (const operation of description.properties.filter((p) => p.name === 'operation')) {
				const resource = operation.displayOptions!.show!.resource![0] as string;
				for (const option of operation.options as Array<{ value: string }>) {
					const parameters = { resource, operation: option.value };
					const shown = workflowRuntime.NodeHelpers.displayParameter(parameters, notice, { typeVersion: version }, description);
					expect(shown, `${resource} → ${option.value}`).toBe(['job', 'source', 'collection'].includes(resource));
				}
			}
		}
	});
});
