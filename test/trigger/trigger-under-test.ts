/** The harness (harness.ts) around the trigger's TypeScript source, for the tests. */
import { JobSignalsTrigger } from '../../nodes/JobSignalsTrigger/JobSignalsTrigger.node';
import { createTrigger as harness, type TriggerOptions } from './harness';

export const createTrigger = (options: Omit<TriggerOptions, 'nodeType'> = {}) =>
	harness({ ...options, nodeType: new JobSignalsTrigger() });
