/**
 * Runs a polling trigger the way n8n 2.40's poll executor does, through
 * n8n-core's real PollContext on a real Workflow: each tick runs the node's
 * poll() in a staging scope (runPollInStagingScope); the node's static data
 * is a staged copy, committed when the items are handed off (__emit) or, for a
 * poll that emitted nothing, by commitStagedCursor; a poll that throws commits
 * nothing and its error goes to __emitError. The committed state is kept as
 * JSON (as n8n stores it), so a new PollTrigger built from `state()` is a
 * restart. `failHandOff` makes the next hand-off throw before the commit: a
 * crash between fetching and handing off. `holdHandOffCommit` keeps the next
 * hand-off's commit back until `landHeldCommit` (or for good), as n8n's commit
 * after poll() returns can land after the next poll has read the position.
 * Each instance is a process of its own: its workflow id is its own, so what
 * the node keeps in memory per trigger is not shared (`restart()` is a new one).
 * With `scheduler: 'default'`, n8n's default scheduler instead: the static data
 * is the workflow's own object, changed in place, so what a failed poll wrote
 * stays for the next poll and is what n8n saves next (`state()`).
 */
import type { ICredentialDataDecryptedObject, IDataObject, INodeExecutionData, INodeParameters, WorkflowExecuteMode } from 'n8n-workflow';
import { additionalData } from './additional-data.mts';
import { buildNode, workflowRecord } from './build.mts';
import { loadPackages } from './packages.mts';
import { coreRuntime, workflowRuntime } from './runtime.mts';

const NODE_NAME = 'Poll';
/** Where a Workflow keeps a node's static data (n8n-workflow's getStaticData('node', node)). */
const NODE_STATIC_KEY = `node:${NODE_NAME}`;

export interface PollOptions {
	type: string;
	parameters: INodeParameters;
	credentials: Record<string, ICredentialDataDecryptedObject>;
	/** The node's committed static data from an earlier instance (a restart); default none. */
	state?: string;
	/** IPollFunctions.getPollBudgetMs(); default n8n's 5 minutes. */
	budgetMs?: number;
	/** The node's version; default the newest. */
	typeVersion?: number;
	/** Whose static data: n8n's durable poll cursors (staged, committed on hand-off; the default) or its default scheduler's (in place). */
	scheduler?: 'durable-cursors' | 'default';
}

export interface Tick {
	/** Items handed off (the first output), or undefined when the poll emitted nothing or failed. */
	items?: INodeExecutionData[];
	error?: Error & { description?: string | null; httpCode?: string | null };
}

export class PollTrigger {
	private committed: string;
	private failNextHandOff = false;
	private holdNextCommit = false;
	private held: string | undefined;
	/** The default scheduler's workflow static data: one object for every tick of this process. */
	private inPlace: IDataObject | undefined;

	private static started = 0;
	private readonly workflowId = `harness-poll-${++PollTrigger.started}`;

	constructor(private readonly options: PollOptions) {
		this.committed = options.state ?? '{}';
	}

	/** The same trigger in a new process, from what was committed. */
	restart(): PollTrigger {
		return new PollTrigger({ ...this.options, state: this.state() });
	}

	/** The committed static data, as n8n would store it (the default scheduler's: as it stands, whatever the last poll did). */
	state(): string {
		return this.inPlace === undefined ? this.committed : JSON.stringify(this.inPlace[NODE_STATIC_KEY]);
	}

	failHandOff(): void {
		this.failNextHandOff = true;
	}

	holdHandOffCommit(): void {
		this.holdNextCommit = true;
	}

	landHeldCommit(): void {
		if (this.held !== undefined) this.committed = this.held;
		this.held = undefined;
	}

	/** One tick as the poll executor runs it in an active workflow ('trigger'), or "Fetch test event" ('manual': nothing committed). */
	async tick(mode: WorkflowExecuteMode = 'trigger'): Promise<Tick> {
		const packages = await loadPackages();
		const { credentials } = this.options;
		const node = buildNode(packages, { type: this.options.type, typeVersion: this.options.typeVersion, parameters: this.options.parameters }, { id: 'poll-1', name: NODE_NAME, x: 0 }, credentials);
		const workflowData = workflowRecord(this.workflowId, [node], {});
		// The default scheduler's workflow keeps this process's static data object: what the node writes lands in it.
		if (this.options.scheduler === 'default') this.inPlace ??= { [NODE_STATIC_KEY]: JSON.parse(this.committed) as IDataObject };
		const workflow = new workflowRuntime.Workflow({ id: workflowData.id, nodes: [node], connections: {}, active: true, nodeTypes: packages.nodeTypes, staticData: this.inPlace });
		const tick: Tick = {};
		let staged: IDataObject = {};
		const commit = () => {
			this.committed = JSON.stringify(staged);
		};
		const emit = (data: INodeExecutionData[][]) => {
			if (this.failNextHandOff) {
				this.failNextHandOff = false;
				throw new Error('hand-off failed (simulated crash before the cursor commit)');
			}
			tick.items = data[0];
			if (mode === 'manual') return;
			if (this.holdNextCommit) {
				this.holdNextCommit = false;
				this.held = JSON.stringify(staged);
			} else commit();
		};
		// Durable cursors: the node's static data a staged copy, committed on hand-off. The default scheduler: n8n-core's
		// own defaults (undefined), no staging and the workflow's static data, in place.
		const durable = this.options.scheduler !== 'default';
		const context = new coreRuntime.PollContext(
			workflow,
			node,
			additionalData({ packages, credentials, workflowData }),
			mode,
			mode === 'manual' ? 'manual' : 'activate',
			emit,
			(error: Error) => {
				tick.error = error;
			},
			durable
				? async () => {
						if (mode !== 'manual') commit();
					}
				: undefined,
			durable
				? async (poll) => {
						staged = JSON.parse(this.committed) as IDataObject;
						return await poll();
					}
				: undefined,
			durable ? () => staged : undefined,
			() => this.options.budgetMs ?? 5 * 60_000,
		);
		const nodeType = packages.nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
		try {
			await coreRuntime.runPollInStagingScope(context, async () => {
				const response = await nodeType.poll!.call(context);
				if (response !== null) context.__emit(response);
				else if (mode !== 'manual') await coreRuntime.commitStagedCursor(context);
			});
		} catch (error) {
			context.__emitError(error as Error);
		}
		return tick;
	}
}
